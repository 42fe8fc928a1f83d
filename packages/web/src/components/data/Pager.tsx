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
}

export function Pager({ page, pageSize, total, what }: PagerProps) {
  const setSearch = useSetSearch();
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className={styles.pager} aria-label={`${what} pages`}>
      <span>
        {formatCount(first)}–{formatCount(last)} of {formatCount(total)} {what}
      </span>
      <Button
        size="sm"
        disabled={page <= 1}
        onClick={() => setSearch({ page: page - 1 === 1 ? undefined : page - 1 })}
      >
        Previous
      </Button>
      <Button size="sm" disabled={last >= total} onClick={() => setSearch({ page: page + 1 })}>
        Next
      </Button>
    </nav>
  );
}
