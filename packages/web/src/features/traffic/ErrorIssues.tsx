// The errors page's issues: exceptions and error logs grouped by fingerprint (type, masked
// message, top in-app frames), with New/Regressed badges, and a drawer with the newest stack and
// links to sample traces and their requests. Captured data is untrusted: rendered as text only.
import type { ErrorIssue } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import styles from "../../components/data/Data.module.css";
import { type Column, DataTable } from "../../components/data/DataTable";
import { Drawer } from "../../components/data/Drawer";
import { formatCount } from "../../components/data/parts";
import { noItems, QueryCard, Quiet } from "../../components/data/QueryView";
import { buttonClass } from "../../components/ui/Button";
import { CodeBlock } from "../../components/ui/Code";
import { windowQuery } from "../../lib/api-params";
import { sharedSearch, type TimeWindow, type TrafficSearch } from "../../lib/filters";
import { formatDateTime } from "../../lib/format";
import { trafficApi } from "../../lib/traffic-api";
import { useTimeZone } from "../../lib/use-time-zone";
import { ErrorTail } from "./columns";

const PAGE_SIZE = 25;

const issueKey = (issue: ErrorIssue) => `${issue.app_id}/${issue.fingerprint}`;

/** The message without the `Type: ` prefix the type column already shows. */
function issueTitle(issue: ErrorIssue): string {
  const prefix = `${issue.error_type}: `;
  return issue.error_type !== "" && issue.message.startsWith(prefix)
    ? issue.message.slice(prefix.length)
    : issue.message;
}

function IssueCell({ issue }: { issue: ErrorIssue }) {
  return (
    <>
      {issue.error_type !== "" ? <strong>{issue.error_type}</strong> : null}
      {issue.error_type !== "" ? " " : null}
      <span>{issueTitle(issue)}</span>
      <ErrorTail app={issue.app_slug} isNew={issue.is_new} regressed={issue.is_regression} />
    </>
  );
}

function issueColumns(zone: string | undefined): Column<ErrorIssue>[] {
  return [
    { header: "Issue", cell: (issue) => <IssueCell issue={issue} /> },
    { header: "Count", numeric: true, cell: (issue) => formatCount(issue.count) },
    { header: "Consumers", numeric: true, cell: (issue) => formatCount(issue.affected_consumers) },
    { header: "First seen", numeric: true, cell: (issue) => formatDateTime(issue.first_seen_at, zone) },
    { header: "Last seen", numeric: true, cell: (issue) => formatDateTime(issue.last_seen_at, zone) },
  ];
}

function IssueDrawer({
  issue,
  project,
  search,
  onClose,
}: {
  issue: ErrorIssue | undefined;
  project: string;
  search: TrafficSearch;
  onClose: () => void;
}) {
  const zone = useTimeZone();
  return (
    <Drawer open={issue !== undefined} onClose={onClose} title={issue ? issue.error_type || "Error log" : ""}>
      {issue ? (
        <>
          <dl className={styles.facts} aria-label="Issue facts">
            <dt>Message</dt>
            <dd>{issue.message}</dd>
            <dt>Occurrences</dt>
            <dd>{formatCount(issue.count)} in this window</dd>
            <dt>Consumers</dt>
            <dd>{formatCount(issue.affected_consumers)}</dd>
            <dt>First seen</dt>
            <dd>{formatDateTime(issue.first_seen_at, zone)}</dd>
            <dt>Last seen</dt>
            <dd>{formatDateTime(issue.last_seen_at, zone)}</dd>
            <dt>Fingerprint</dt>
            <dd className={styles.mono}>{issue.fingerprint}</dd>
          </dl>
          <section className={styles.drawerSection} aria-label="Stack">
            <h3>Newest stack</h3>
            {issue.stack === "" ? (
              <p className={styles.updating}>No stack was sent with this error.</p>
            ) : (
              <CodeBlock code={issue.stack} label="Stack trace" />
            )}
          </section>
          <section className={styles.drawerSection} aria-label="Samples">
            <h3>Samples</h3>
            {issue.sample_trace_ids.length === 0 ? (
              <p className={styles.updating}>No occurrence carried a trace id.</p>
            ) : (
              <div className={styles.links}>
                {issue.sample_trace_ids.map((traceId) => (
                  <span key={traceId} className={styles.inlineFilters}>
                    <Link
                      className={buttonClass({ size: "sm" })}
                      to="/projects/$project/traces/$traceId"
                      params={{ project, traceId }}
                    >
                      Trace {traceId.slice(0, 8)}
                    </Link>
                    <Link
                      className={buttonClass({ size: "sm" })}
                      to="/projects/$project/requests"
                      params={{ project }}
                      search={{ ...sharedSearch(search), trace: traceId }}
                    >
                      Requests of trace {traceId.slice(0, 8)}
                    </Link>
                  </span>
                ))}
              </div>
            )}
          </section>
        </>
      ) : null}
    </Drawer>
  );
}

/** The issues card of the errors page, most frequent first. */
export function ErrorIssues({
  project,
  search,
  window,
}: {
  project: string;
  search: TrafficSearch;
  window: Pick<TimeWindow, "since" | "until">;
}) {
  const zone = useTimeZone();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const issues = useQuery(
    trafficApi.errorIssues(project, {
      ...windowQuery(search, window),
      sort_by: "count",
      sort_dir: "desc",
      page,
      page_size: PAGE_SIZE,
    }),
  );
  const opened = issues.data?.items.find((issue) => issueKey(issue) === open);
  return (
    <>
      <QueryCard
        title="Exceptions and error logs"
        query={issues}
        what="the error issues"
        rows={4}
        empty={{
          when: noItems,
          show: <Quiet>No exceptions or ERROR logs in this window.</Quiet>,
        }}
      >
        {(data) => (
          <DataTable
            label="Error issues"
            rows={data.items}
            columns={issueColumns(zone)}
            rowKey={issueKey}
            rowLabel={(issue) => `${issue.error_type || "Error"}: ${issueTitle(issue)}`}
            onOpen={(issue) => setOpen(issueKey(issue))}
            pager={{ page, pageSize: PAGE_SIZE, total: data.total_count, what: "issues", onPage: setPage }}
            exportName={`${project}-error-issues`}
          />
        )}
      </QueryCard>
      <IssueDrawer issue={opened} project={project} search={search} onClose={() => setOpen(undefined)} />
    </>
  );
}
