// A card over one page of a list query: the QueryCard states (failure, skeleton, "Updating…",
// the empty answer) around a DataTable of the page's items with its pager; and the empty answer
// of the explorers (Requests, Logs, Traces) and their list card.
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { TableOrder } from "../../lib/api-params";
import type { TimeWindow } from "../../lib/filters";
import { formatDateTime } from "../../lib/format";
import { DataTable, type DataTableProps } from "./DataTable";
import { noItems, QueryCard, QueryView, Quiet } from "./QueryView";
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

/** A short list's items as a table, without a pager (a few rows inside a card). */
export function ItemsTable<Row extends object>({
  query,
  what,
  skeletonRows,
  empty,
  ...table
}: Omit<DataTableProps<Row>, "rows" | "pager"> & {
  query: UseQueryResult<ListPage<Row>>;
  what: string;
  skeletonRows: number;
  /** What no items shows; without it, an empty table. */
  empty?: ReactNode;
}) {
  return (
    <QueryView
      query={query}
      what={what}
      rows={skeletonRows}
      {...(empty === undefined ? {} : { empty: { when: noItems, show: empty } })}
    >
      {(data) => <DataTable {...table} rows={data.items} />}
    </QueryView>
  );
}

/**
 * A list the server sorts and pages by the URL (`order`): the page it names, labelled after its
 * title and named after what it counts unless told otherwise, and a quiet line when empty.
 */
export function OrderedListCard<Row extends object>({
  order,
  empty,
  what,
  label,
  skeletonRows = 5,
  ...card
}: Omit<ListCardProps<Row>, "page" | "order" | "empty" | "what" | "label" | "skeletonRows"> & {
  order: TableOrder<string>;
  empty: string;
  what?: string;
  label?: string;
  skeletonRows?: number;
}) {
  return (
    <ListCard
      {...card}
      order={order}
      page={order.page}
      what={what ?? `the ${card.counted}`}
      label={label ?? card.title}
      skeletonRows={skeletonRows}
      empty={<Quiet>{empty}</Quiet>}
    />
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

/**
 * The list of an explorer: a page of its kind, titled and counted after it, with its empty answer.
 * Requests and logs stream: they download from the server (the header's links, not the page's
 * rows) and refetch in live mode, which shows as updating.
 */
export function ExplorerCard<Row extends object>({
  kind,
  window,
  zone,
  ...card
}: Omit<
  ListCardProps<Row>,
  "title" | "label" | "what" | "skeletonRows" | "empty" | "pageSize" | "counted" | "updating" | "exportName"
> & {
  kind: SentKind;
  window: TimeWindow;
  zone: string | undefined;
}) {
  const title = EXPLORER_TITLES[kind];
  const { query } = card;
  const streamed = kind !== "traces";
  return (
    <ListCard
      {...card}
      {...(streamed
        ? { updating: query.isPlaceholderData || query.isRefetching, exportName: false as const }
        : {})}
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
