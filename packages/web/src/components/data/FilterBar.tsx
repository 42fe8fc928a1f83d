// The one filter bar of the traffic pages: time range (presets or a custom span read in the
// profile's zone), app, environment, the page's own filters, Refresh and opt-in auto-refresh.
// Everything it sets goes into the URL; environments load only when their list is opened.
import { useQuery } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "../ui/Button";
import { Options } from "../ui/Field";
import { Switch } from "../ui/Switch";
import { appsQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import { trafficApi } from "../../lib/traffic-api";
import {
  isoToZonedInput,
  RANGE_PRESETS,
  type RangePreset,
  REFRESH_SECONDS,
  type TimeWindow,
  type TrafficSearch,
  zonedInputToIso,
} from "../../lib/filters";
import styles from "./Data.module.css";
import { SavedViews } from "./SavedViews";
import { useProjectSlug, useSetSearch } from "../../lib/page-state";

const PRESET_LABELS: Record<RangePreset, string> = {
  "1h": "Last hour",
  "6h": "Last 6 hours",
  "24h": "Last 24 hours",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
};

export function FilterBar({
  search,
  window,
  onRefresh,
  children,
  showEnvironment = true,
  compare = false,
}: {
  search: TrafficSearch;
  window: TimeWindow;
  onRefresh: () => void;
  children?: ReactNode;
  showEnvironment?: boolean;
  /** The page has charts: offer laying the previous period over them (`compare` in the URL). */
  compare?: boolean;
}) {
  const project = useProjectSlug();
  const setSearch = useSetSearch();
  const zone = useTimeZone() ?? "UTC";
  const apps = useQuery(appsQuery(project));
  const [envOpened, setEnvOpened] = useState(search.env !== undefined);
  const environments = useQuery({
    ...trafficApi.environments(project, { app_slugs: search.app }),
    enabled: envOpened && showEnvironment,
  });
  const custom = search.since !== undefined;
  const [editing, setEditing] = useState(false);
  const [from, setFrom] = useState(() => isoToZonedInput(window.since, zone));
  const [to, setTo] = useState(() => isoToZonedInput(window.until, zone));
  const fromIso = zonedInputToIso(from, zone);
  const toIso = zonedInputToIso(to, zone);
  const customValid = fromIso !== undefined && toIso !== undefined && fromIso < toIso;
  const edit = (set: (value: string) => void) => (value: string) => {
    setEditing(true);
    set(value);
  };

  const rangeValue = editing || custom ? "custom" : (search.range ?? "24h");
  const envNames = environments.data?.environments ?? (search.env ? [search.env] : []);

  return (
    <div className={styles.filterBar} role="search" aria-label="Filters">
      <label className={styles.filter}>
        <span>Time range</span>
        <select
          value={rangeValue}
          onChange={(event) => {
            const value = event.target.value;
            if (value === "custom") {
              setFrom(isoToZonedInput(window.since, zone));
              setTo(isoToZonedInput(window.until, zone));
              setEditing(true);
              return;
            }
            setEditing(false);
            setSearch({ range: value as RangePreset, since: undefined, until: undefined, page: undefined });
          }}
        >
          <Options
            items={RANGE_PRESETS}
            value={(preset) => preset}
            label={(preset) => PRESET_LABELS[preset]}
          />
          <option value="custom">Custom range…</option>
        </select>
      </label>
      {editing || custom ? (
        <form
          className={styles.customRange}
          onSubmit={(event) => {
            event.preventDefault();
            if (!customValid) return;
            setEditing(false);
            setSearch({ since: fromIso, until: toIso, range: undefined, page: undefined });
          }}
        >
          <ZonedInstant
            label={`From (${zone})`}
            value={editing ? from : isoToZonedInput(window.since, zone)}
            onChange={edit(setFrom)}
          />
          <ZonedInstant
            label={`To (${zone})`}
            value={editing ? to : isoToZonedInput(window.until, zone)}
            onChange={edit(setTo)}
          />
          {editing ? (
            <Button size="sm" type="submit" disabled={!customValid}>
              Apply
            </Button>
          ) : null}
        </form>
      ) : null}
      <label className={styles.filter}>
        <span>App</span>
        <select
          value={search.app ?? ""}
          onChange={(event) => setSearch({ app: event.target.value || undefined, page: undefined })}
        >
          <option value="">All apps</option>
          <Options items={apps.data ?? []} value={(app) => app.slug} label={(app) => app.name} />
          {search.app !== undefined &&
          apps.data !== undefined &&
          !apps.data.some((a) => a.slug === search.app) ? (
            <option value={search.app}>{search.app}</option>
          ) : null}
        </select>
      </label>
      {showEnvironment ? (
        <label className={styles.filter}>
          <span>Environment</span>
          <select
            value={search.env ?? ""}
            onFocus={() => setEnvOpened(true)}
            onPointerDown={() => setEnvOpened(true)}
            onChange={(event) => setSearch({ env: event.target.value || undefined, page: undefined })}
          >
            <option value="">All environments</option>
            <Options items={envNames} value={(name) => name} label={(name) => name} />
          </select>
        </label>
      ) : null}
      {children}
      <div className={styles.filterEnd}>
        {compare ? (
          <div className={[styles.filter, styles.compare].join(" ")}>
            <span aria-hidden="true">Previous period</span>
            <Switch
              checked={search.compare === true}
              label="Compare with the previous period"
              onChange={(checked) => setSearch({ compare: checked ? true : undefined }, { replace: true })}
            />
          </div>
        ) : null}
        <SavedViews />
        <label className={styles.filter}>
          <span>Auto-refresh</span>
          <select
            value={search.refresh ?? ""}
            onChange={(event) =>
              setSearch(
                { refresh: event.target.value === "" ? undefined : Number(event.target.value) },
                { replace: true },
              )
            }
          >
            <option value="">Off</option>
            <Options
              items={REFRESH_SECONDS}
              value={(seconds) => seconds}
              label={(seconds) => (seconds < 60 ? `Every ${seconds} s` : `Every ${seconds / 60} min`)}
            />
          </select>
        </label>
        <Button size="sm" onClick={onRefresh} aria-label="Refresh now">
          <RefreshCw size={15} aria-hidden="true" />
          Refresh
        </Button>
      </div>
    </div>
  );
}

/** One end of the custom range, as a local date and time in the profile's zone. */
function ZonedInstant({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className={styles.filter}>
      <span>{label}</span>
      <input type="datetime-local" value={value} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}
