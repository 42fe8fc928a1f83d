// The logs explorer: levels, text search, logger and trace id in the URL, newest first, coloured
// by level (the level is also written out), a drawer per record with a link to its trace's
// requests.
import type { LogRecord } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { buttonClass } from "../../components/ui/Button";
import { CodeBlock } from "../../components/ui/Code";
import { Page, PageHeader } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { formatDateTime } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { prettyPayload } from "./curl";
import { DownloadLinks } from "./DownloadLinks";
import { Drawer } from "./Drawer";
import { FilterBar } from "./FilterBar";
import { Pager } from "./parts";
import { noItems, QueryCard, Quiet } from "./query-view";
import { TextFilter } from "./TextFilter";
import { trafficApi } from "./traffic-api";
import { LOG_LEVELS, type TrafficSearch } from "./traffic-search";
import styles from "./Traffic.module.css";
import { useDataPainted, useTrafficPage } from "./use-traffic";

const PAGE_SIZE = 50;

function Level({ level }: { level: string }) {
  return <span className={[styles.level, styles[`l${level}`]].join(" ")}>{level}</span>;
}

/** The log route's parameters for a search: the list and the download read the same ones. */
function logParams(search: TrafficSearch, window: { since: string; until: string }) {
  return {
    app_slugs: search.app,
    environment: search.env,
    since: window.since,
    until: window.until,
    levels: search.levels,
    search: search.q,
    loggers: search.logger,
    trace_id: search.trace,
  };
}

export function LogsPage() {
  const { project, search, setSearch, window, refresh } = useTrafficPage();
  const zone = useTimeZone();
  const page = search.page ?? 1;
  const filters = logParams(search, window);
  const logs = useQuery(trafficApi.logs(project, { ...filters, page, page_size: PAGE_SIZE }));
  useDataPainted(logs.isSuccess);
  const open = logs.data?.items.find((item) => item.id === search.log);

  return (
    <Page>
      <PageHeader
        title="Logs"
        description="What your apps logged, newest first."
        actions={<DownloadLinks project={project} kind="logs" params={filters} />}
      />
      <FilterBar search={search} window={window} onRefresh={refresh}>
        <label className={styles.filter}>
          <span>Level</span>
          <select
            value={search.levels ?? ""}
            onChange={(e) => setSearch({ levels: e.target.value || undefined, page: undefined })}
          >
            <option value="">Any</option>
            {LOG_LEVELS.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
            <option value="WARNING,ERROR,CRITICAL">WARNING and above</option>
          </select>
        </label>
        <TextFilter
          label="Search"
          type="search"
          value={search.q}
          onCommit={(q) => setSearch({ q, page: undefined })}
        />
        <TextFilter
          label="Logger"
          value={search.logger}
          onCommit={(logger) => setSearch({ logger, page: undefined })}
        />
        <TextFilter
          label="Trace id"
          value={search.trace}
          width="20"
          onCommit={(trace) => setSearch({ trace, page: undefined })}
        />
      </FilterBar>
      <QueryCard
        title="Logs"
        query={logs}
        what="the logs"
        rows={8}
        empty={{
          when: noItems,
          show: (
            <Quiet>
              No logs match between {formatDateTime(window.since, zone)} and{" "}
              {formatDateTime(window.until, zone)}.
            </Quiet>
          ),
        }}
      >
        {(data) => (
          <>
            <div className={table.wrap}>
              <table className={table.table} aria-label="Logs">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Level</th>
                    <th scope="col">Message</th>
                    <th scope="col">Logger</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((row) => (
                    <tr
                      key={row.id}
                      className={styles.clickRow}
                      tabIndex={0}
                      data-log-id={row.id}
                      onClick={() => setSearch({ log: row.id })}
                      onKeyDown={(event) => {
                        if (event.key === "Enter") setSearch({ log: row.id });
                      }}
                    >
                      <td className={styles.num}>{formatDateTime(row.timestamp, zone)}</td>
                      <td>
                        <Level level={row.level} />
                      </td>
                      <td>{row.message}</td>
                      <td className={styles.mono}>{row.logger_name || "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={data.total_count} what="logs" />
          </>
        )}
      </QueryCard>
      <Drawer
        open={open !== undefined}
        onClose={() => setSearch({ log: undefined })}
        title={
          open ? (
            <>
              <Level level={open.level} /> {open.message}
            </>
          ) : (
            "Log"
          )
        }
      >
        {open ? <LogBody project={project} record={open} zone={zone} /> : null}
      </Drawer>
    </Page>
  );
}

function LogBody({
  project,
  record,
  zone,
}: {
  project: string;
  record: LogRecord;
  zone: string | undefined;
}) {
  const attributes = Object.entries(record.attributes);
  return (
    <>
      <dl className={styles.facts} aria-label="Log facts">
        <dt>Time</dt>
        <dd>{formatDateTime(record.timestamp, zone)}</dd>
        <dt>Logger</dt>
        <dd className={styles.mono}>{record.logger_name || "—"}</dd>
        <dt>Environment</dt>
        <dd>{record.environment}</dd>
        <dt>Trace</dt>
        <dd className={styles.mono}>{record.trace_id || "—"}</dd>
        <dt>Span</dt>
        <dd className={styles.mono}>{record.span_id || "—"}</dd>
        {attributes.map(([name, value]) => (
          <div key={name} className={styles.inlineFilters}>
            <dt className={styles.mono}>{name}</dt>
            <dd className={styles.mono}>{value}</dd>
          </div>
        ))}
      </dl>
      {record.trace_id !== "" ? (
        <div className={styles.links}>
          <Link
            className={buttonClass({ size: "sm" })}
            to="/projects/$project/traces/$traceId"
            params={{ project, traceId: record.trace_id }}
          >
            View trace
          </Link>
          <Link
            className={buttonClass({ size: "sm" })}
            to="/projects/$project/requests"
            params={{ project }}
            search={{ trace: record.trace_id, range: "30d" }}
          >
            Requests of this trace
          </Link>
          <Link
            className={buttonClass({ size: "sm" })}
            to="/projects/$project/logs"
            params={{ project }}
            search={{ trace: record.trace_id, range: "30d" }}
          >
            All logs of this trace
          </Link>
        </div>
      ) : null}
      {record.payload !== "" ? <CodeBlock code={prettyPayload(record.payload)} label="Log payload" /> : null}
    </>
  );
}
