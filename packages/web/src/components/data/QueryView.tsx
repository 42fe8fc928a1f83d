// How a traffic region shows one query: the failure panel, a skeleton until the first answer,
// what to show when the answer is empty, else the content built from the data; and the card
// whose title says "Updating…" while new filters load over the previous figures; and the card
// over a whole list of a project's things (rules, SLOs).
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ErrorPanel, loadingOrFailed, SkeletonRows } from "../ui/Feedback";
import { Card, Page } from "../ui/Surface";
import { Failed, Updating } from "./parts";
import styles from "./Data.module.css";

export type QueryViewProps<T> = {
  query: UseQueryResult<T>;
  /** What the query loads, as the failure panel names it ("the consumers"). */
  what: string;
  /** Height of the skeleton in rows. */
  rows: number;
  /** When the answer has nothing to show, and what to show then. */
  empty?: { when: (data: T) => boolean; show: ReactNode };
  children: (data: T) => ReactNode;
};

export function QueryView<T>({ query, what, rows, empty, children }: QueryViewProps<T>) {
  if (query.isError) return <Failed error={query.error} what={what} retry={() => void query.refetch()} />;
  if (query.data === undefined) return <SkeletonRows rows={rows} label={`Loading ${what}`} />;
  if (empty?.when(query.data)) return <>{empty.show}</>;
  return <>{children(query.data)}</>;
}

/**
 * A page that stands on one record (a rule, an SLO): skeleton rows while it loads, the error
 * with Retry if it failed, else the page built from it.
 */
export function PageQuery<T>({
  query,
  what,
  loading = what,
  children,
}: {
  query: UseQueryResult<T>;
  /** What failed to load, as the error panel names it ("this alert rule"). */
  what: string;
  /** What the skeleton says is loading, when it is worded otherwise ("the rule"). */
  loading?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isError)
    return (
      <Page>
        <ErrorPanel what={what} error={query.error} onRetry={() => void query.refetch()} />
      </Page>
    );
  if (query.data === undefined)
    return (
      <Page>
        <SkeletonRows rows={6} label={`Loading ${loading}`} />
      </Page>
    );
  return <>{children(query.data)}</>;
}

/** A card over one query, its title marked while a placeholder (the previous answer) is shown. */
export function QueryCard<T>({
  title,
  updating,
  ...view
}: QueryViewProps<T> & {
  title: string;
  /** Defaults to "the previous answer is on screen while the new one loads". */
  updating?: boolean;
}) {
  return (
    <Card
      title={
        <>
          {title} <Updating active={updating ?? view.query.isPlaceholderData} />
        </>
      }
    >
      <QueryView {...view} />
    </Card>
  );
}

/**
 * A card over a whole list: a card of skeleton rows while it loads, the error with Retry if it
 * failed, the empty state when there is nothing, else the list.
 */
export function ListQueryCard<Row>({
  query,
  title,
  what,
  labelledBy,
  empty,
  children,
}: {
  query: UseQueryResult<Row[]>;
  title: string;
  /** What the query loads, as the failure panel names it ("the SLOs"). */
  what: string;
  labelledBy: string;
  empty: ReactNode;
  children: (rows: Row[]) => ReactNode;
}) {
  return (
    loadingOrFailed(query, { title, what }) ?? (
      <Card title={title} labelledBy={labelledBy}>
        {query.data?.length === 0 ? empty : children(query.data ?? [])}
      </Card>
    )
  );
}

/** The quiet line shown where a list has nothing in the window. */
export function Quiet({ children }: { children: ReactNode }) {
  return <p className={styles.updating}>{children}</p>;
}

export const noItems = (data: { items: readonly unknown[] }) => data.items.length === 0;
