// Saving a settings card: the request, the stored record put in the cache (its list marked
// stale), the toast, and the server's refusal as an API error for the fields to show.
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { useToast } from "../../components/ui/Toast";
import { isApiError } from "../../lib/api-client";

export function useSettingsSave<Body, Saved>({
  request,
  item,
  list,
  saved,
}: {
  request: (body: Body) => Promise<Saved>;
  /** Where the stored record is cached: set to the server's answer. */
  item: QueryKey;
  /** The list that shows the record, refetched after. */
  list?: QueryKey;
  /** The toast after a save. */
  saved: string;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: request,
    onSuccess: async (updated) => {
      queryClient.setQueryData(item, updated);
      if (list !== undefined) await queryClient.invalidateQueries({ queryKey: list });
      toast(saved);
    },
  });
  return { save, error: isApiError(save.error) ? save.error : undefined };
}
