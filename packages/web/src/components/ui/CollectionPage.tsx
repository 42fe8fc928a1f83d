// The page of one kind of thing a project keeps (alert rules, SLOs, uptime checks): its heading
// with the "New …" button for those who may write, and for the others why they only read.
import type { ReactNode } from "react";
import { ReadOnlyNotice } from "./Feedback";
import { type NewPage, NewLink } from "./NewLink";
import { Page, PageHeader } from "./Surface";

export function CollectionPage({
  project,
  title,
  description,
  canWrite,
  readOnly,
  create,
  children,
}: {
  project: string;
  title: string;
  description: ReactNode;
  canWrite: boolean;
  /** Shown to those who may not write. */
  readOnly?: ReactNode;
  /** The page that creates one, and its button's label ("New rule"). */
  create: { to: NewPage; label: string };
  /** The page's cards, given the "New …" button (undefined for readers) for their empty states. */
  children: (newButton: ReactNode) => ReactNode;
}) {
  const newButton = canWrite ? (
    <NewLink to={create.to} project={project}>
      {create.label}
    </NewLink>
  ) : undefined;
  return (
    <Page>
      <PageHeader title={title} description={description} actions={newButton} />
      {readOnly === undefined ? null : <ReadOnlyNotice canWrite={canWrite}>{readOnly}</ReadOnlyNotice>}
      {children(newButton)}
    </Page>
  );
}
