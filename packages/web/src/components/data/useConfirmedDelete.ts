// Deleting a row behind a confirmation: the row asked about, the delete request, then the list
// refetched and a toast naming what went. Spread `confirm` into a `ConfirmOn` dialog.
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useToast } from "../ui/Toast";

export function useConfirmedDelete<T>({
  remove,
  stale,
  deleted,
}: {
  remove: (target: T) => Promise<unknown>;
  /** The queries that showed the row, refetched before the toast. */
  stale: QueryKey;
  /** The toast once it is gone. */
  deleted: (target: T) => string;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [target, setTarget] = useState<T | null>(null);
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async (_answer, removed) => {
      setTarget(null);
      await queryClient.invalidateQueries({ queryKey: stale });
      toast(deleted(removed));
    },
  });
  return { ask: setTarget, confirm: { target, onClose: () => setTarget(null), mutation } };
}
