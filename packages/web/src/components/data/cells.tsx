// Cells that many tables share: an instant as "3 hours ago" with the full time on hover, and the
// right-aligned group of a row's action buttons.
import type { ReactNode } from "react";
import { formatDateTime, relativeTime } from "../../lib/format";
import { table } from "../ui/Table";

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
