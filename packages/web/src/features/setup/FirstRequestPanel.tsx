// "Waiting for your first request…": polls for the app's newest record every few seconds while
// the tab is visible (TanStack Query pauses interval refetches in hidden tabs), and turns green
// by itself when one arrives. After ten minutes it says what to check, and keeps the way open.
import type { RequestRecord } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Check } from "lucide-react";
import { useEffect, useState } from "react";
import { Button, buttonClass } from "../../components/ui/Button";
import { ErrorPanel } from "../../components/ui/Feedback";
import { formatDateTime, formatLatency } from "../../lib/format";
import { firstRequestQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import styles from "./Setup.module.css";

export const POLL_INTERVAL_MS = 3000;
export const PATIENCE_MS = 10 * 60_000;

/** Interval for the next poll: none once a record is in, or once patience has run out. */
export function pollInterval(record: RequestRecord | null | undefined, waitedMs: number): number | false {
  if (record) return false;
  return waitedMs < PATIENCE_MS ? POLL_INTERVAL_MS : false;
}

export function FirstRequestPanel({
  project,
  app,
  appName,
}: {
  project: string;
  app: string;
  appName: string;
}) {
  const [startedAt, setStartedAt] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  const timeZone = useTimeZone();
  const query = useQuery({
    ...firstRequestQuery(project, app),
    refetchInterval: (q) => pollInterval(q.state.data, Date.now() - startedAt),
    refetchIntervalInBackground: false,
  });
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 15_000);
    return () => window.clearInterval(timer);
  }, []);
  const gaveUp = !query.data && now - startedAt >= PATIENCE_MS;

  if (query.data) {
    const record = query.data;
    return (
      <div className={[styles.waiting, styles.received].join(" ")} role="status" data-state="received">
        <span className={styles.receivedIcon} aria-hidden="true">
          <Check size={20} strokeWidth={3} />
        </span>
        <div className={styles.waitingText}>
          <span className={styles.waitingTitle}>First request received</span>
          <span className={styles.waitingMeta}>
            {appName} is sending records to Sightline. Everything is set up.
          </span>
          <span className={styles.record}>
            <strong>{record.method}</strong> {record.path} → {record.status_code} ·{" "}
            {formatLatency(record.response_time_ms)} · {formatDateTime(record.timestamp, timeZone)}
          </span>
        </div>
        {/* The next step: where the data now lives. */}
        <div className={styles.nextSteps}>
          <Link
            className={buttonClass({ variant: "primary", size: "sm" })}
            to="/projects/$project"
            params={{ project }}
            search={{ app }}
          >
            Open the Overview
          </Link>
          <Link
            className={buttonClass({ size: "sm" })}
            to="/projects/$project/requests"
            params={{ project }}
            search={{ app }}
          >
            See requests
          </Link>
        </div>
      </div>
    );
  }
  if (query.isError && !query.isFetching) {
    return <ErrorPanel what="the newest record" error={query.error} onRetry={() => void query.refetch()} />;
  }
  return (
    <div className={styles.waiting} role="status" data-state="waiting">
      <span className={styles.pulse} aria-hidden="true" />
      <div className={styles.waitingText}>
        <span className={styles.waitingTitle}>
          {gaveUp ? "Still waiting for the first request" : "Waiting for your first request…"}
        </span>
        <span className={styles.waitingMeta}>
          {gaveUp
            ? "Nothing has arrived yet. Check that the key and the URL in your code match the ones above."
            : `Run one of the snippets above. This panel turns green by itself when ${appName}'s first record arrives.`}
        </span>
      </div>
      {gaveUp ? (
        <Button
          size="sm"
          onClick={() => {
            setStartedAt(Date.now());
            setNow(Date.now());
            void query.refetch();
          }}
        >
          Keep waiting
        </Button>
      ) : null}
    </div>
  );
}
