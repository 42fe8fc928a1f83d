// The logs explorer: levels, text search (applied as you type), logger and trace id in the URL,
// newest first, coloured by level (the level is also written out), a drawer per record with a
// link to its trace's requests, and a live tail (as the requests' live mode: page 1 refetched
// every 5 s with the window left open) that can be paused without leaving it.
import { TraceLink } from "../../components/data/TraceLink";
import type { LogRecord } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import styles from "../../components/data/Data.module.css";
import { EXPLORER_PAGE_SIZE, ExplorerCard } from "../../components/data/ListCard";
import { StreamHeader } from "../../components/data/StreamHeader";
import { Drawer } from "../../components/data/Drawer";
import { NamedValueRows } from "../../components/data/NamedValues";
import { FilterBar } from "../../components/data/FilterBar";
import { Level, logColumns, logRowData } from "../../components/data/log-columns";
import { UrlChoiceFilter, UrlTextFilter } from "../../components/data/UrlFilters";
import { Button } from "../../components/ui/Button";
import { CodeBlock } from "../../components/ui/Code";
import { Page } from "../../components/ui/Surface";
import { logsQuery } from "../../lib/api-params";
import { prettyPayload } from "../../lib/curl";
import { LOG_LEVELS } from "@sightline/contracts/vocabulary";
import { formatDateTime } from "../../lib/format";
import { useDataPage, useDataPainted } from "../../lib/page-state";
import { trafficApi } from "../../lib/traffic-api";
import { useTimeZone } from "../../lib/use-time-zone";
import { RetentionNotice } from "./RetentionNotice";

const LIVE_MS = 5000;

export function LogsPage() {
  const { project, search, setSearch, window, refresh } = useDataPage();
  const zone = useTimeZone();
  const page = search.page ?? 1;
  // Paused is the reader's moment, not the page's state: a shared link tails live.
  const [paused, setPaused] = useState(false);
  const live = search.live === true && page === 1 && search.since === undefined;
  const tailing = live && !paused;
  const filters = logsQuery(search, window, live);
  const logs = useQuery({
    ...trafficApi.logs(project, { ...filters, page, page_size: EXPLORER_PAGE_SIZE }),
    refetchInterval: tailing ? LIVE_MS : false,
  });
  useDataPainted(logs.isSuccess);
  const open = logs.data?.items.find((item) => item.id === search.log);

  return (
    <Page>
      <StreamHeader
        description="What your apps logged, newest first."
        download={{ project, kind: "logs", params: filters }}
        live={{
          label: "Live tail: show new logs as they arrive",
          state: tailing ? "Live · every 5 s" : live ? "Paused" : "Live tail",
          beating: tailing,
          onSwitch: () => setPaused(false),
          children: live ? (
            <Button size="sm" onClick={() => setPaused(!paused)}>
              {paused ? "Resume" : "Pause"}
            </Button>
          ) : null,
        }}
      />
      <FilterBar search={search} window={window} onRefresh={refresh}>
        <UrlChoiceFilter
          param="levels"
          label="Level"
          choices={[...LOG_LEVELS, { value: "WARNING,ERROR,CRITICAL", label: "WARNING and above" }]}
        />
        <UrlTextFilter param="q" label="Search" type="search" />
        <UrlTextFilter param="logger" label="Logger" />
        <UrlTextFilter param="trace" label="Trace id" width="20" />
      </FilterBar>
      <RetentionNotice project={project} retention={logs.data?.retention} what="logs" />
      <ExplorerCard
        kind="logs"
        window={window}
        zone={zone}
        query={logs}
        page={page}
        columns={logColumns(zone)}
        rowKey={(row) => row.id}
        rowData={logRowData}
        onOpen={(row) => setSearch({ log: row.id })}
      />
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
        <NamedValueRows entries={Object.entries(record.attributes)} />
      </dl>
      {record.trace_id !== "" ? (
        <div className={styles.links}>
          <TraceLink project={project} traceId={record.trace_id} to="trace">
            View trace
          </TraceLink>
          <TraceLink project={project} traceId={record.trace_id} to="requests">
            Requests of this trace
          </TraceLink>
          <TraceLink project={project} traceId={record.trace_id} to="logs">
            All logs of this trace
          </TraceLink>
        </div>
      ) : null}
      {record.payload !== "" ? <CodeBlock code={prettyPayload(record.payload)} label="Log payload" /> : null}
    </>
  );
}
