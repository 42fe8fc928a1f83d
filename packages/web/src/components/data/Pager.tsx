// The pager under a paged table: "1–50 of 1,234 requests", Previous and Next, the page in the
// URL (`page`, left out for the first) so a shared link opens the same page.
import { useSetSearch } from "../../lib/page-state";
import { Button } from "../ui/Button";
import styles from "./Data.module.css";
import { formatCount } from "./parts";

export interface PagerProps {
  readonly page: number;
  readonly pageSize: number;
  readonly total: number;
  /** What the rows are, plural ("requests"). */
  readonly what: string;
  /** Keeps the page outside the URL (a second paged table on a page that pages by `page`). */
  readonly onPage?: (page: number) => void;
}

export function Pager({ page, pageSize, total, what, onPage }: PagerProps) {
  const setSearch = useSetSearch();
  const go = (next: number) =>
    onPage !== undefined ? onPage(next) : setSearch({ page: next === 1 ? undefined : next });
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className={styles.pager} aria-label={`${what} pages`}>
      <span>
        {formatCount(first)}–{formatCount(last)} of {formatCount(total)} {what}
      </span>
      <Button size="sm" disabled={page <= 1} onClick={() => go(page - 1)}>
        Previous
      </Button>
      <Button size="sm" disabled={last >= total} onClick={() => go(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
