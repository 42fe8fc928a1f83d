// Hooks every data page uses: the URL's filters and their time window (re-anchored by the
// opt-in auto-refresh, which pauses while the tab is hidden), navigation that edits the URL,
// and the performance marks the dashboard bench reads.
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { useCallback, useEffect, useMemo, useState } from "react";
import { type TimeWindow, timeWindow, type TrafficSearch } from "./filters";
import { compact } from "./search";

export const DATA_PAINTED_MARK = "sightline:data-painted";
/** Set on pages that compare periods, once the previous period's figures are on screen too. */
export const COMPARISON_PAINTED_MARK = "sightline:comparison-painted";

export function useProjectSlug(): string {
  return useParams({ strict: false }).project ?? "";
}

/** The data pages' URL state, as the router validated it (`validateTrafficSearch`). */
export function useTrafficSearch(): TrafficSearch {
  return useSearch({ strict: false });
}

/** Every search key of every route (all optional), as the router's validators type them. */
export function useUrlSearch() {
  return useSearch({ strict: false });
}
type UrlSearch = ReturnType<typeof useUrlSearch>;

/** Edits the URL's search: `replace` for typing, a history entry for deliberate changes. */
export function useSetSearch(): (patch: Partial<UrlSearch>, options?: { replace?: boolean }) => void {
  const navigate = useNavigate();
  return useCallback(
    (patch, options) => {
      void navigate({
        to: ".",
        search: (previous) => compact({ ...previous, ...patch }),
        replace: options?.replace ?? false,
      });
    },
    [navigate],
  );
}

/**
 * The window of the URL's range. Presets end at "now" as of the last anchor: page load, a range
 * change, Refresh, or an auto-refresh tick (only while the tab is visible).
 */
export function useTimeWindow(search: TrafficSearch): { window: TimeWindow; refresh: () => void } {
  const [anchor, setAnchor] = useState(() => Date.now());
  const queryClient = useQueryClient();
  const refresh = useCallback(() => {
    setAnchor(Date.now());
    // Within the same minute the window (and so the keys) stay the same: refetch what is shown.
    void queryClient.invalidateQueries({ predicate: (query) => query.queryKey.includes("traffic") });
  }, [queryClient]);
  const period = search.refresh;
  useEffect(() => {
    if (period === undefined) return;
    const tick = () => {
      if (document.visibilityState === "visible") refresh();
    };
    const timer = globalThis.setInterval(tick, period * 1000);
    // Coming back to a hidden tab refreshes at once if a tick was missed.
    const onVisible = () => {
      if (document.visibilityState === "visible") tick();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      globalThis.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [period, refresh]);
  const { range, since, until } = search;
  const window = useMemo(() => timeWindow({ range, since, until }, anchor), [range, since, until, anchor]);
  return { window, refresh };
}

/**
 * Marks the first time this page's data is on screen (once per page visit). Returns true from
 * then on: follow-up reads (the previous period, lazy panels) wait for it, so first paint keeps
 * to its own calls.
 */
export function useDataPainted(ready: boolean): boolean {
  return usePaintedMark(DATA_PAINTED_MARK, ready);
}

/**
 * Marks the first time the previous period's figures (KPI changes, the chart's dashed overlay)
 * are on screen as well, or known to have nothing to show. A page that compares calls it, so the
 * bench's timer stops only once the comparison has painted.
 */
export function useComparisonPainted(ready: boolean): boolean {
  return usePaintedMark(COMPARISON_PAINTED_MARK, ready);
}

function usePaintedMark(name: string, ready: boolean): boolean {
  const [marked, setMarked] = useState(false);
  useEffect(() => {
    if (!ready || marked) return;
    // After the browser has painted the committed frame.
    const frame = requestAnimationFrame(() => {
      performance.mark(name);
      setMarked(true);
    });
    return () => cancelAnimationFrame(frame);
  }, [name, ready, marked]);
  return marked;
}

/** A follow-up read whose figures are on screen, or that has nothing to fetch. */
export function settled(query: { isSuccess: boolean; isPlaceholderData: boolean }, wanted: boolean): boolean {
  return !wanted || (query.isSuccess && !query.isPlaceholderData);
}

/** What every data page reads first: its project, the URL's filters, their window. */
export function useDataPage() {
  const project = useProjectSlug();
  const search = useTrafficSearch();
  const setSearch = useSetSearch();
  const { window, refresh } = useTimeWindow(search);
  return { project, search, setSearch, window, refresh };
}
