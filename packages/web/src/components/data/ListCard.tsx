// A card over one page of a list query: the QueryCard states (failure, skeleton, "Updating…",
// the empty answer) around a DataTable of the page's items with its pager; and the empty answer
// of the explorers (Requests, Logs, Traces) and their list card.
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { TimeWindow } from "../../lib/filters";
import { formatDateTime } from "../../lib/format";
import { DataTable, type DataTableProps } from "./DataTable";
import { noItems, QueryCard, Quiet } from "./QueryView";
import { type SentKind, SendDataHint } from "./SendDataHint";

export interface ListPage<Row> {
  readonly items: readonly Row[];
  readonly total_count: number;
}

export type ListCardProps<Row> = Omit<DataTableProps<Row>, "rows" | "pager"> & {
  title: string;
  query: UseQueryResult<ListPage<Row>>;
  /** What the query loads, as the failure panel names it ("the logs"). */
  what: string;
  /** Height of the skeleton in rows. */
  skeletonRows: number;
  /** Defaults to "the previous answer is on screen while the new one loads". */
  updating?: boolean;
  /** What an empty page shows. */
  empty: ReactNode;
  page: number;
  pageSize: number;
  /** What the pager counts, plural ("requests"). */
  counted: string;
  /** Keeps the page outside the URL. */
  onPage?: (page: number) => void;
};

export function ListCard<Row extends object>({
  title,
  query,
  what,
  skeletonRows,
  updating,
  empty,
  page,
  pageSize,
  counted,
  onPage,
  ...table
}: ListCardProps<Row>) {
  return (
    <QueryCard
      title={title}
      updating={updating}
      query={query}
      what={what}
      rows={skeletonRows}
      empty={{ when: noItems, show: empty }}
    >
      {(data) => (
        <DataTable
          {...table}
          rows={data.items}
          pager={{ page, pageSize, total: data.total_count, what: counted, ...(onPage ? { onPage } : {}) }}
        />
      )}
    </QueryCard>
  );
}

/** An explorer with nothing in the window: says so, and how that kind of data is sent. */
export function NoneInWindow({
  kind,
  window,
  zone,
}: {
  kind: SentKind;
  window: TimeWindow;
  zone: string | undefined;
}) {
  return (
    <>
      <Quiet>
        No {kind} match between {formatDateTime(window.since, zone)} and {formatDateTime(window.until, zone)}.
      </Quiet>
      <SendDataHint kind={kind} />
    </>
  );
}

/** How many rows a page of an explorer holds. */
export const EXPLORER_PAGE_SIZE = 50;

const EXPLORER_TITLES: Record<SentKind, string> = { requests: "Requests", logs: "Logs", traces: "Traces" };

/** The list of an explorer: a page of its kind, titled and counted after it, with its empty answer. */
export function ExplorerCard<Row extends object>({
  kind,
  window,
  zone,
  ...card
}: Omit<
  ListCardProps<Row>,
  "title" | "label" | "what" | "skeletonRows" | "empty" | "pageSize" | "counted"
> & {
  kind: SentKind;
  window: TimeWindow;
  zone: string | undefined;
}) {
  const title = EXPLORER_TITLES[kind];
  return (
    <ListCard
      {...card}
      title={title}
      label={title}
      what={`the ${kind}`}
      skeletonRows={8}
      empty={<NoneInWindow kind={kind} window={window} zone={zone} />}
      pageSize={EXPLORER_PAGE_SIZE}
      counted={kind}
    />
  );
}
