// The "Danger zone" card of a settings page: deleting the thing the page is about, said plainly,
// behind a confirmation that lists what goes and asks for the name typed out; once deleted, the
// thing leaves the caches (its own query, and its list, so the page returned to never shows it).
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ConfirmDialog, useConfirmation } from "../../components/ui/Dialog";
import { DangerCard } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";

/** Where the deleted thing is cached. */
export interface Cached {
  /** Its own query, dropped. */
  readonly item: QueryKey;
  /** The list of its kind, which loses it at once and then refetches. */
  readonly list: QueryKey;
  /** Other queries that count it, refetched. */
  readonly alsoStale?: readonly QueryKey[];
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export function DangerZoneCard({
  kind,
  record,
  meta,
  description,
  consequences,
  remove,
  cached,
  leave,
}: {
  /** What the page is about, lower case: "app" gives "Delete this app", "Delete app". */
  kind: string;
  /** Named in the confirmation, which asks for the slug typed out. */
  record: { readonly name: string; readonly slug: string };
  meta: ReactNode;
  description?: string;
  /** What goes with it, one sentence each. */
  consequences: string[];
  remove: () => Promise<unknown>;
  cached: Cached;
  /** After the caches forgot it: where the page goes. */
  leave: () => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      confirmation.hide();
      queryClient.removeQueries({ queryKey: cached.item });
      queryClient.setQueryData(cached.list, (items: ReadonlyArray<{ slug: string }> | undefined) =>
        items?.filter((item) => item.slug !== record.slug),
      );
      for (const queryKey of [cached.list, ...(cached.alsoStale ?? [])])
        await queryClient.invalidateQueries({ queryKey });
      toast(`${capitalized(kind)} “${record.name}” deleted`);
      await leave();
    },
  });
  const confirmation = useConfirmation(mutation);
  const actionLabel = `Delete ${kind}`;
  return (
    <DangerCard
      title={`Delete this ${kind}`}
      meta={meta}
      actionLabel={actionLabel}
      onAction={confirmation.show}
    >
      <ConfirmDialog
        {...confirmation.dialog}
        title={`Delete ${record.name}?`}
        {...(description === undefined ? {} : { description })}
        consequences={consequences}
        confirmText={record.slug}
        confirmLabel={actionLabel}
      />
    </DangerCard>
  );
}
