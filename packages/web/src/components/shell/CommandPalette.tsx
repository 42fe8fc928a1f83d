// The command palette (Ctrl-K / ⌘K), loaded on first use: jump to a page or setting (the route
// tree's titled pages), an endpoint or consumer of the project (searched on the server in the
// current window), or a request or trace by its id. A combobox over a listbox: arrows move,
// Enter opens, Escape closes (the dialog traps focus and gives it back to the opener).
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useRouter } from "@tanstack/react-router";
import { type KeyboardEvent, useId, useMemo, useState } from "react";
import { sharedSearch, timeWindow, type TrafficSearch } from "../../lib/filters";
import { useDebounced } from "../../lib/use-debounced";
import { useProjectSlug, useTrafficSearch } from "../../lib/page-state";
import { trafficApi } from "../../lib/traffic-api";
import { Dialog } from "../ui/Dialog";
import { navigablePages, useTitledRoutes } from "./navigation";
import styles from "./Shell.module.css";

const SUGGESTIONS = 5;
const DEBOUNCE_MS = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TRACE_ID = /^[0-9a-f]{32}$/i;

interface Option {
  readonly key: string;
  readonly group: string;
  readonly label: string;
  readonly hint?: string | undefined;
  readonly href: string;
}

const p = encodeURIComponent;

/** The pages a person can open from here: titled routes whose only parameter is the project. */
function usePageOptions(project: string): Option[] {
  const routes = useTitledRoutes();
  return useMemo(
    () =>
      navigablePages(routes).flatMap(({ route, title, to }) => {
        if (to.startsWith("/auth") || to.includes("/accept")) return [];
        const params = to.split("/").filter((part) => part.startsWith("$"));
        if (params.some((param) => param !== "$project")) return [];
        if (params.length > 0 && project === "") return [];
        const href = to.replace("$project", p(project));
        const section = route.options.staticData?.nav?.section;
        return [
          { key: `page:${route.id}`, group: "Pages", label: title, hint: section ? undefined : href, href },
        ];
      }),
    [routes, project],
  );
}

export default function CommandPalette({ onClose }: { onClose: () => void }) {
  const project = useProjectSlug();
  const search = useTrafficSearch();
  const router = useRouter();
  const navigate = useNavigate();
  const listId = useId();
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const searched = useDebounced(text.trim(), DEBOUNCE_MS);
  const [window] = useState(() => timeWindow(search, Date.now()));
  const carried = sharedSearch(search);
  const remote = project !== "" && searched.length >= 2;
  const base = { since: window.since, until: window.until, app_slugs: search.app, environment: search.env };
  const endpoints = useQuery({
    ...trafficApi.endpoints(project, { ...base, q: searched, page_size: SUGGESTIONS }),
    enabled: remote,
  });
  const consumers = useQuery({
    ...trafficApi.consumers(project, {
      ...base,
      q: searched,
      sort_by: "total_requests",
      page_size: SUGGESTIONS,
    }),
    enabled: remote,
  });
  const pages = usePageOptions(project);
  const query = text.trim().toLowerCase();
  const qs = (values: TrafficSearch) => router.options.stringifySearch({ ...values });

  const options: Option[] = [];
  if (project !== "" && UUID.test(query)) {
    options.push({
      key: "request",
      group: "Records",
      label: `Request ${query}`,
      href: `/projects/${p(project)}/requests${qs({ ...carried, req: query })}`,
    });
  }
  if (project !== "" && TRACE_ID.test(query)) {
    options.push({
      key: "trace",
      group: "Records",
      label: `Trace ${query}`,
      href: `/projects/${p(project)}/traces/${p(query)}`,
    });
  }
  options.push(...pages.filter((page) => query === "" || page.label.toLowerCase().includes(query)));
  const current = remote && searched === text.trim();
  for (const row of current ? (endpoints.data?.items ?? []) : []) {
    if (row.app_slug === null) continue;
    options.push({
      key: `endpoint:${row.app_id}:${row.method}:${row.path}`,
      group: "Endpoints",
      label: `${row.method} ${row.path}`,
      hint: row.app_slug,
      href: `/projects/${p(project)}/endpoints/detail${qs({
        ...carried,
        app: row.app_slug,
        method: row.method,
        path: row.path,
      })}`,
    });
  }
  for (const row of current ? (consumers.data?.items ?? []) : []) {
    if (row.consumer_id === "") continue;
    options.push({
      key: `consumer:${row.consumer_id}`,
      group: "Consumers",
      label: row.consumer,
      hint: row.consumer !== row.consumer_id ? row.consumer_id : undefined,
      href: `/projects/${p(project)}/consumers/${p(row.consumer_id)}${qs(carried)}`,
    });
  }
  const loading = remote && (!current || endpoints.isFetching || consumers.isFetching);
  const selected = Math.min(active, Math.max(options.length - 1, 0));

  const open = (option: Option | undefined) => {
    if (option === undefined) return;
    onClose();
    void navigate({ href: option.href });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((selected + step + options.length) % Math.max(options.length, 1));
    } else if (event.key === "Enter") {
      event.preventDefault();
      open(options[selected]);
    }
  };

  const groups = [...new Set(options.map((option) => option.group))];
  const optionId = (index: number) => `${listId}-option-${index}`;
  return (
    <Dialog open onOpenChange={(next) => (next ? undefined : onClose())} title="Go to">
      <input
        className={styles.paletteInput}
        role="combobox"
        aria-label="Search pages, endpoints, consumers, request or trace ids"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={options.length > 0 ? optionId(selected) : undefined}
        placeholder="Page, endpoint, consumer, request id or trace id"
        value={text}
        autoFocus
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Results"
        className={styles.paletteList}
        data-command-palette=""
      >
        {groups.map((group) => (
          <div key={group} role="group" aria-label={group}>
            <div className={styles.paletteGroup} aria-hidden="true">
              {group}
            </div>
            {options.map((option, index) =>
              option.group !== group ? null : (
                <div
                  key={option.key}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === selected}
                  className={styles.paletteOption}
                  onMouseEnter={() => setActive(index)}
                  onClick={() => open(option)}
                >
                  <span>{option.label}</span>
                  {option.hint ? <span className={styles.paletteHint}>{option.hint}</span> : null}
                </div>
              ),
            )}
          </div>
        ))}
      </div>
      <p className={styles.paletteStatus} role="status">
        {loading ? "Searching…" : options.length === 0 ? "Nothing matches." : `${options.length} results`}
      </p>
    </Dialog>
  );
}
