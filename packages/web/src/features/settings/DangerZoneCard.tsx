// The "Danger zone" card of a settings page: deleting the thing the page is about, said plainly,
// behind a confirmation that lists what goes and asks for the name typed out; once deleted, the
// thing leaves the caches (its own query, and its list, so the page returned to never shows it).
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ConfirmDialog, useConfirmation } from "../../components/ui/Dialog";
import { DangerCard } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";

/** Where the deleted thing is cached, and what is said once it is gone. */
export interface Deleted {
  readonly slug: string;
  /** Its own query, dropped. */
  readonly item: QueryKey;
  /** The list of its kind, which loses it at once and then refetches. */
  readonly list: QueryKey;
  /** Other queries that count it, refetched. */
  readonly alsoStale?: readonly QueryKey[];
  readonly toast: string;
}

export function DangerZoneCard({
  title,
  meta,
  actionLabel,
  confirm,
  remove,
  deleted,
  leave,
}: {
  /** The action, e.g. "Delete this app". */
  title: string;
  meta: ReactNode;
  /** The button's and the confirmation's label, e.g. "Delete app". */
  actionLabel: string;
  confirm: { title: string; description?: string; consequences: string[]; confirmText: string };
  remove: () => Promise<unknown>;
  deleted: Deleted;
  /** After the caches forgot it: where the page goes. */
  leave: () => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      confirmation.hide();
      queryClient.removeQueries({ queryKey: deleted.item });
      queryClient.setQueryData(deleted.list, (items: ReadonlyArray<{ slug: string }> | undefined) =>
        items?.filter((item) => item.slug !== deleted.slug),
      );
      for (const queryKey of [deleted.list, ...(deleted.alsoStale ?? [])])
        await queryClient.invalidateQueries({ queryKey });
      toast(deleted.toast);
      await leave();
    },
  });
  const confirmation = useConfirmation(mutation);
  return (
    <DangerCard title={title} meta={meta} actionLabel={actionLabel} onAction={confirmation.show}>
      <ConfirmDialog {...confirmation.dialog} {...confirm} confirmLabel={actionLabel} />
    </DangerCard>
  );
}
