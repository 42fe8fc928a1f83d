// Cells that many tables share: an instant as "3 hours ago" with the full time on hover, the
// right-aligned group of a row's action buttons, and the column of Revoke buttons.
import type { ReactNode } from "react";
import { formatDateTime, relativeTime } from "../../lib/format";
import { Button } from "../ui/Button";
import { table } from "../ui/Table";
import type { Column } from "./DataTable";

export function WhenCell({
  iso,
  zone,
  never = "Never",
}: {
  iso: string | null;
  zone: string | undefined;
  /** What an instant that never happened reads ("Never"). */
  never?: string;
}) {
  if (iso === null) return <span className={table.muted}>{never}</span>;
  return (
    <span className={table.muted} title={formatDateTime(iso, zone)}>
      {relativeTime(iso)}
    </span>
  );
}

export function Actions({ children }: { children: ReactNode }) {
  return <div className={table.actions}>{children}</div>;
}

/**
 * The last column of a list of revocable things (keys, tokens, invitations): a Revoke button on
 * the rows `can` allows, named for screen readers by `label` ("Revoke key nightly").
 */
export function revokeColumn<Row>({
  label,
  onRevoke,
  can = () => true,
}: {
  label: (row: Row) => string;
  onRevoke: (row: Row) => void;
  can?: (row: Row) => boolean;
}): Column<Row> {
  return {
    header: "Actions",
    hiddenHeader: true,
    cell: (row) => (
      <Actions>
        {can(row) ? (
          <Button size="sm" variant="dangerOutline" onClick={() => onRevoke(row)} aria-label={label(row)}>
            Revoke
          </Button>
        ) : null}
      </Actions>
    ),
  };
}
