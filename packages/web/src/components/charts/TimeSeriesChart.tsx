// A uPlot time-series chart for server-bucketed data: stacked bars or lines, a tooltip with the
// exact figures of the hovered bucket, legend buttons that toggle series, drag-to-zoom reported
// as a time range, colours from the design tokens (redrawn when the theme changes), and an
// accessible name, a spoken summary and a "Show as table" view of the same points.
import { useEffect, useMemo, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { bucketTimes, type ChartSeries, chartSummary, stackValues } from "./chart-data";
import styles from "./Charts.module.css";
import { useThemeColors } from "./use-theme-colors";

export type { ChartSeries } from "./chart-data";

export interface TimeRange {
  /** ISO instants, inclusive start and exclusive end. */
  readonly since: string;
  readonly until: string;
}

export interface TimeSeriesChartProps {
  /** Accessible name, also the figure's caption for screen readers ("Requests over time"). */
  readonly label: string;
  /** Bucket starts as ISO instants, ascending (the server's zero-filled `points[].bucket`). */
  readonly buckets: readonly string[];
  /** Bucket width in ms: the last bucket's end when zooming and in the table. */
  readonly bucketMs: number;
  /** Stack order bottom-up for "stacked"; drawing order for "lines". */
  readonly series: readonly ChartSeries[];
  readonly mode?: "stacked" | "lines";
  /** Formats a value for the axis, the tooltip and the table (default: grouped integer). */
  readonly formatValue?: (value: number) => string;
  /** IANA zone for axis labels and tooltip times (the profile's zone). */
  readonly timeZone?: string;
  readonly height?: number;
  /** Called with the dragged range; without it dragging selects nothing. */
  readonly onZoom?: (range: TimeRange) => void;
  /** Counts: y-axis ticks only at whole numbers (default true for stacked charts). */
  readonly integers?: boolean;
}

const defaultFormat = (value: number) => value.toLocaleString("en-US", { maximumFractionDigits: 2 });

function timeFormatter(timeZone: string | undefined): (ms: number) => string {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  });
  return (ms) => format.format(new Date(ms));
}

const DAY_MS = 86_400_000;

/**
 * The x axis's tick labels in the dashboard's own style ("25 Nov", "14:00": day first, 24 h)
 * and the person's zone, instead of uPlot's US defaults ("11/25", "2pm"). A tick at midnight,
 * or any tick when they are a day or more apart, names the day.
 */
export function axisTimeLabels(timeZone: string | undefined): (splits: number[], incrMs: number) => string[] {
  const day = new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "short" });
  const time = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  });
  return (splits, incrMs) =>
    splits.map((ms) => {
      const clock = time.format(ms);
      return incrMs >= DAY_MS || clock === "00:00" ? day.format(ms) : clock;
    });
}

const INTEGER_STEPS = [
  1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1e3, 2e3, 2.5e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6,
  5e6, 1e7, 1e8, 1e9,
];

interface HoverState {
  readonly index: number;
  readonly left: number;
  readonly top: number;
}

/**
 * The value as of the last render whose key differed: callers may rebuild their arrays on every
 * render (hovering re-renders), and the chart must only be redrawn when the figures change.
 */
function useByContent<T>(value: T, key: string): T {
  const [held, setHeld] = useState({ key, value });
  if (held.key !== key) {
    setHeld({ key, value });
    return value;
  }
  return held.value;
}

export function TimeSeriesChart({
  label,
  buckets: givenBuckets,
  bucketMs,
  series: givenSeries,
  mode = "stacked",
  formatValue = defaultFormat,
  timeZone,
  height = 220,
  onZoom,
  integers = mode === "stacked",
}: TimeSeriesChartProps) {
  const plotRef = useRef<HTMLDivElement>(null);
  const buckets = useByContent(givenBuckets, givenBuckets.join(","));
  const series = useByContent(
    givenSeries,
    givenSeries
      .map((one) => `${one.key}:${one.label}:${one.color}:${one.overlay === true}:${one.values.join(",")}`)
      .join("|"),
  );
  // The latest callback, read when a drag ends: a new function each render must not rebuild the chart.
  const zoomRef = useRef(onZoom);
  useEffect(() => {
    zoomRef.current = onZoom;
  }, [onZoom]);
  const zoomable = onZoom !== undefined;
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [hover, setHover] = useState<HoverState | null>(null);
  const [asTable, setAsTable] = useState(false);
  // Lines of very different sizes (a 20 ms p50 under a 3 s p99) read on a log scale.
  const [logScale, setLogScale] = useState(false);
  const log = logScale && mode === "lines";
  const colors = useThemeColors(
    plotRef,
    series.map((one) => one.color),
  );
  const times = useMemo(() => bucketTimes(buckets), [buckets]);
  const formatTime = useMemo(() => timeFormatter(timeZone), [timeZone]);
  const axisLabels = useMemo(() => axisTimeLabels(timeZone), [timeZone]);
  const visible = series.filter((one) => !hidden.has(one.key));
  const summary = chartSummary(label, times, visible, mode, formatValue, formatTime);

  useEffect(() => {
    const element = plotRef.current;
    if (element === null || colors === null || asTable) return;
    // Stacks are drawn top layer first so each lower layer paints over the one above it.
    const stacked = mode === "stacked";
    const layers = stacked ? stackValues(series, hidden) : series.map((one) => [...one.values]);
    // Overlays (the previous period) are drawn last, over the stack.
    const indices = series.map((_, index) => index);
    const overlays = indices.filter((index) => series[index]?.overlay === true);
    const layered = indices.filter((index) => series[index]?.overlay !== true);
    const order = stacked ? [...layered.reverse(), ...overlays] : [...layered, ...overlays];
    const bars = uPlot.paths.bars?.({ size: [0.8, 48], gap: 1 });
    const opts: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height,
      ms: 1,
      legend: { show: false },
      padding: [8, 8, 0, 0],
      tzDate: timeZone === undefined ? undefined : (ms) => uPlot.tzDate(new Date(ms), timeZone),
      cursor: {
        drag: { x: zoomable, y: false, setScale: false },
        points: { show: !stacked },
        y: false,
      },
      select: { show: zoomable, left: 0, top: 0, width: 0, height: 0 },
      scales: {
        x: { time: true },
        y: log ? { distr: 3, log: 10 } : { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] },
      },
      axes: [
        {
          stroke: colors.text,
          grid: { stroke: colors.grid, width: 1 },
          ticks: { stroke: colors.grid },
          values: (_u, splits, _axis, _space, incr) => {
            const labels = axisLabels(splits, incr);
            // The canvas hides its text from tests and tools: the figure carries it too.
            element.closest("figure")?.setAttribute("data-x-ticks", labels.join("|"));
            return labels;
          },
        },
        {
          stroke: colors.text,
          grid: { stroke: colors.grid, width: 1 },
          ticks: { show: false },
          size: 56,
          // Whole-number steps for counts: no "0.5 requests" tick.
          ...(integers ? { incrs: INTEGER_STEPS } : {}),
          values: (_u, splits) => {
            // A log axis filters its splits to null where no label fits.
            const labels = splits.map((value: number | null) => (value === null ? "" : formatValue(value)));
            element
              .closest("figure")
              ?.setAttribute("data-y-ticks", labels.filter((one) => one !== "").join("|"));
            return labels;
          },
        },
      ],
      series: [
        {},
        ...order.map((index) => {
          const one = series[index] as ChartSeries;
          const color = colors.series[index] as string;
          const bar = stacked && one.overlay !== true;
          return {
            label: one.label,
            show: !hidden.has(one.key),
            stroke: color,
            width: bar ? 0 : 2,
            fill: bar ? color : undefined,
            paths: bar ? bars : undefined,
            dash: one.overlay === true ? [6, 4] : undefined,
            points: { show: false },
          } satisfies uPlot.Series;
        }),
      ],
      hooks: {
        setCursor: [
          (u) => {
            const index = u.cursor.idx;
            if (index === null || index === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
              setHover(null);
              return;
            }
            setHover({ index, left: u.cursor.left, top: u.cursor.top ?? 0 });
          },
        ],
        setSelect: [
          (u) => {
            if (u.select.width < 4) return;
            const from = u.posToVal(u.select.left, "x");
            const to = u.posToVal(u.select.left + u.select.width, "x");
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            const first = times[0];
            if (first === undefined) return;
            // Snap outwards to whole buckets, within the data's span.
            const last = (times[times.length - 1] as number) + bucketMs;
            const since = Math.max(first, first + Math.floor((from - first) / bucketMs) * bucketMs);
            const until = Math.min(last, first + Math.ceil((to - first) / bucketMs) * bucketMs);
            if (until > since)
              zoomRef.current?.({
                since: new Date(since).toISOString(),
                until: new Date(until).toISOString(),
              });
          },
        ],
      },
    };
    // A log scale has no zero: an empty bucket is a gap there.
    const plotted = (values: number[]) => (log ? values.map((value) => (value > 0 ? value : null)) : values);
    const data: uPlot.AlignedData = [times, ...order.map((index) => plotted(layers[index] as number[]))];
    const chart = new uPlot(opts, data, element);
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(element.clientWidth, 200), height }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [
    series,
    hidden,
    times,
    mode,
    height,
    colors,
    timeZone,
    axisLabels,
    formatValue,
    bucketMs,
    asTable,
    zoomable,
    integers,
    log,
  ]);

  const toggle = (key: string) =>
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else if (next.size < series.length - 1) next.add(key);
      return next;
    });

  const hovered = hover === null ? undefined : times[hover.index];
  return (
    <figure className={styles.figure} aria-label={label} data-chart={label}>
      <div className={styles.toolbar}>
        <div className={styles.legend} role="group" aria-label={`${label}: series`}>
          {series.map((one, index) => (
            <button
              key={one.key}
              type="button"
              className={styles.legendItem}
              aria-pressed={!hidden.has(one.key)}
              onClick={() => toggle(one.key)}
              data-series={one.key}
            >
              <span
                className={styles.swatch}
                aria-hidden="true"
                ref={(node) => {
                  if (node && colors) node.style.background = colors.series[index] ?? "";
                }}
              />
              {one.label}
            </button>
          ))}
        </div>
        {mode === "lines" && !asTable ? (
          <button
            type="button"
            className={styles.tableToggle}
            aria-pressed={logScale}
            onClick={() => setLogScale(!logScale)}
          >
            Log scale
          </button>
        ) : null}
        <button
          type="button"
          className={styles.tableToggle}
          aria-pressed={asTable}
          onClick={() => setAsTable(!asTable)}
        >
          {asTable ? "Show as chart" : "Show as table"}
        </button>
      </div>
      <p className="visually-hidden" data-chart-summary="">
        {summary}
      </p>
      {asTable ? (
        <ChartTable
          times={times}
          series={visible}
          formatValue={formatValue}
          formatTime={formatTime}
          label={label}
        />
      ) : (
        <div className={styles.plotWrap}>
          <div ref={plotRef} className={styles.plot} aria-hidden="true" data-points={times.length} />
          {hover !== null && hovered !== undefined ? (
            <div
              className={styles.tooltip}
              role="status"
              ref={(node) => {
                if (!node) return;
                const width = plotRef.current?.clientWidth ?? 0;
                const flip = hover.left > width / 2;
                node.style.left = `${flip ? hover.left - node.offsetWidth - 12 : hover.left + 12}px`;
                node.style.top = `${Math.max(0, Math.min(hover.top, height - node.offsetHeight))}px`;
              }}
            >
              <span className={styles.tooltipTime}>
                {formatTime(hovered)} – {formatTime(hovered + bucketMs)}
              </span>
              {visible.map((one) => (
                <span key={one.key} className={styles.tooltipRow}>
                  <span>{one.label}</span>
                  <span className={styles.tooltipValue}>{formatValue(one.values[hover.index] ?? 0)}</span>
                </span>
              ))}
              {mode === "stacked" && visible.filter((one) => one.overlay !== true).length > 1 ? (
                <span className={[styles.tooltipRow, styles.tooltipTotal].join(" ")}>
                  <span>Total</span>
                  <span className={styles.tooltipValue}>
                    {formatValue(
                      visible
                        .filter((one) => one.overlay !== true)
                        .reduce((sum, one) => sum + (one.values[hover.index] ?? 0), 0),
                    )}
                  </span>
                </span>
              ) : null}
            </div>
          ) : null}
        </div>
      )}
    </figure>
  );
}

function ChartTable({
  label,
  times,
  series,
  formatValue,
  formatTime,
}: {
  label: string;
  times: readonly number[];
  series: readonly ChartSeries[];
  formatValue: (value: number) => string;
  formatTime: (ms: number) => string;
}) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>
            <th scope="col">Bucket</th>
            {series.map((one) => (
              <th key={one.key} scope="col">
                {one.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {times.map((time, index) => (
            <tr key={time}>
              <th scope="row">{formatTime(time)}</th>
              {series.map((one) => (
                <td key={one.key}>{formatValue(one.values[index] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
