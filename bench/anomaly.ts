// npm run bench:anomaly — replays synthetic traffic through the anomaly model of alert rules (the
// server's own evaluateAnomaly, historyAt and state machine, ADR 0020) and scores its alerts
// against planted incidents. Each series is one rule's view of one scope: minute by minute
// requests (daily and weekly seasonality, trend, day-to-day level, over-dispersed noise), errors
// and a latency histogram; 4 weeks of history, then BENCH_WEEKS weeks evaluated every minute.
// Planted: spikes, drops (traffic only), level shifts and slow drifts. Printed: detection rate
// within 5 minutes, median time to detection, false alerts per 100 series-weeks, against targets.
// Knobs: BENCH_SEED (2 = evaluation; 1 = the tuning seed), BENCH_SERIES per metric (15),
// BENCH_WEEKS evaluated per series (4), BENCH_SENSITIVITY (medium), BENCH_FOR (2), BENCH_WINDOW (300),
// BENCH_MIN_RATE / BENCH_MAX_RATE (50 / 600 requests a minute), BENCH_DEBUG=1 (each false alert
// and each late or missed detection, with the model's verdicts).
import type { AnomalyMetric, AnomalySensitivity, AlertState } from "@sightline/contracts";
import {
  evaluateAnomaly,
  type BucketStats,
  historyAt,
} from "../packages/server/src/modules/alerts/anomaly-model.js";

import { ANOMALY_DEFAULTS, defaultDirection } from "../packages/server/src/modules/alerts/rule-input.js";
import { nextState } from "../packages/server/src/modules/alerts/state-machine.js";
import { median } from "./stats.js";

const SEED = Number(process.env.BENCH_SEED ?? 2);
const SERIES = Number(process.env.BENCH_SERIES ?? 15);
const EVAL_WEEKS = Number(process.env.BENCH_WEEKS ?? 4);
const SENSITIVITY = (process.env.BENCH_SENSITIVITY ?? ANOMALY_DEFAULTS.sensitivity) as AnomalySensitivity;
const FOR = Number(process.env.BENCH_FOR ?? ANOMALY_DEFAULTS.forEvaluations);
const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW ?? 300);
const MIN_REQUESTS = ANOMALY_DEFAULTS.minRequests;
/** Mean requests a minute of a series, log-uniform between these (BENCH_MIN_RATE, BENCH_MAX_RATE). */
const MIN_RATE = Number(process.env.BENCH_MIN_RATE ?? 50);
const MAX_RATE = Number(process.env.BENCH_MAX_RATE ?? 600);
const HISTORY_WEEKS = 4;
const WEEK = 10_080;
const DAY = 1_440;
const TARGET_DETECTION = 0.95;
const TARGET_TTD_MIN = 5;
const TARGET_FALSE_PER_100 = 1;
const METRICS: readonly AnomalyMetric[] = ["request_count", "error_rate", "p95_latency_ms"];

const say = (line = "") => process.stdout.write(`${line}\n`);

// ---- seeded randomness ----

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

class Random {
  readonly #next: () => number;
  #spare: number | null = null;
  constructor(seed: number) {
    this.#next = rng(seed);
  }
  uniform(low = 0, high = 1): number {
    return low + (high - low) * this.#next();
  }
  int(low: number, high: number): number {
    return Math.floor(this.uniform(low, high + 1));
  }
  normal(): number {
    if (this.#spare !== null) {
      const spare = this.#spare;
      this.#spare = null;
      return spare;
    }
    const u = Math.max(this.#next(), 1e-12);
    const v = this.#next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.#spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 40) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let count = 0;
    let product = this.#next();
    while (product > limit) {
      count += 1;
      product *= this.#next();
    }
    return count;
  }
  /** Successes of n trials of probability p, by geometric skips (O(n·p)). */
  binomial(n: number, p: number): number {
    if (p <= 0 || n === 0) return 0;
    if (p >= 1) return n;
    if (p > 0.5) return n - this.binomial(n, 1 - p);
    const logQ = Math.log(1 - p);
    let successes = 0;
    let position = 0;
    for (;;) {
      position += Math.floor(Math.log(Math.max(this.#next(), 1e-12)) / logQ) + 1;
      if (position > n) return successes;
      successes += 1;
    }
  }
}

// ---- planted incidents ----

type IncidentKind = "spike" | "drop" | "level shift" | "drift";

interface Incident {
  readonly kind: IncidentKind;
  readonly start: number;
  /** Minutes of ramp (drifts); 0 otherwise. */
  readonly ramp: number;
  readonly end: number;
  /** Full effect: a factor on traffic or latency, or error-rate points added. */
  readonly size: number;
  readonly scored: boolean;
}

/** How much of the incident's effect applies at minute t (0 outside it). */
function strength(incident: Incident, t: number): number {
  if (t < incident.start || t >= incident.end) return 0;
  return incident.ramp === 0 ? 1 : Math.min(1, (t - incident.start + 1) / incident.ramp);
}

function plantIncident(random: Random, metric: AnomalyMetric, start: number, scored: boolean): Incident {
  const kinds: IncidentKind[] =
    metric === "request_count"
      ? ["spike", "drop", "level shift", "drift"]
      : ["spike", "level shift", "drift"];
  const kind = kinds[random.int(0, kinds.length - 1)] as IncidentKind;
  const up = metric !== "request_count" || random.uniform() < 0.5;
  const factor = (low: number, high: number) =>
    up ? random.uniform(low, high) : 1 / random.uniform(low, high);
  switch (kind) {
    case "spike": {
      const size = metric === "error_rate" ? random.uniform(10, 30) : random.uniform(3, 6);
      return { kind, start, ramp: 0, end: start + random.int(10, 30), size, scored };
    }
    case "drop":
      return { kind, start, ramp: 0, end: start + random.int(10, 60), size: random.uniform(0, 0.3), scored };
    case "level shift": {
      const size = metric === "error_rate" ? random.uniform(5, 10) : factor(2, 2.5);
      return { kind, start, ramp: 0, end: start + random.int(120, 360), size, scored };
    }
    case "drift": {
      const size = metric === "error_rate" ? random.uniform(8, 15) : factor(2.5, 3);
      return { kind, start, ramp: 30, end: start + 90, size, scored };
    }
  }
}

/** When a detection counts from: onset, or for a drift the moment it reaches its full size. */
const referenceOf = (incident: Incident) => incident.start + incident.ramp;

// ---- synthetic series ----

const GAMMA = 1.02;
const LOG_GAMMA = Math.log(GAMMA);
const BINS = Math.ceil(Math.log(600_000) / LOG_GAMMA) + 1;
const binOf = (ms: number) =>
  Math.min(BINS - 1, Math.max(0, Math.ceil(Math.log(Math.max(ms, 1)) / LOG_GAMMA)));
const binValue = (bin: number) => (2 * GAMMA ** bin) / (1 + GAMMA);

interface Series {
  readonly metric: AnomalyMetric;
  readonly incidents: readonly Incident[];
  /** Stats of the window ending at each minute (exclusive), for every minute. */
  readonly windows: readonly BucketStats[];
}

function makeSeries(random: Random, metric: AnomalyMetric): Series {
  const minutes = (HISTORY_WEEKS + EVAL_WEEKS) * WEEK;
  const incidents: Incident[] = [];
  for (let week = 0; week < HISTORY_WEEKS + EVAL_WEEKS; week += 1) {
    const scored = week >= HISTORY_WEEKS;
    const count = scored ? 2 : 1;
    for (let index = 0; index < count; index += 1) {
      // Half a week each, well inside it, so incidents never overlap.
      const start = week * WEEK + index * (WEEK / 2) + random.int(6 * 60, WEEK / 2 - 8 * 60);
      incidents.push(plantIncident(random, metric, start, scored));
    }
  }
  const mean = Math.exp(random.uniform(Math.log(MIN_RATE), Math.log(MAX_RATE)));
  const dailyAmplitude = random.uniform(0.3, 0.7);
  const phase = random.uniform(0, DAY);
  const weekend = random.uniform(0.4, 0.95);
  const trendPerWeek = random.uniform(-0.03, 0.05);
  const baseError = random.uniform(0.2, 3);
  const medianLatency = random.uniform(20, 300);
  const sigma = random.uniform(0.4, 0.9);
  const dayLevels = Array.from({ length: minutes / DAY + 1 }, () => Math.exp(0.05 * random.normal()));
  const hourLevels = Array.from({ length: minutes / 60 + 1 }, () => Math.exp(0.03 * random.normal()));

  const span = WINDOW_SECONDS / 60;
  const requests = new Float64Array(minutes);
  const errors = new Float64Array(minutes);
  // The last `span` minutes' latency histograms (a ring), and their sum: the window's histogram.
  const ring = Array.from({ length: span }, () => new Uint32Array(BINS));
  const sliding = new Uint32Array(BINS);
  const windows: BucketStats[] = [{ requests: 0, errors: 0, p95: null }];
  let inWindow = 0;
  let errorsInWindow = 0;
  for (let t = 0; t < minutes; t += 1) {
    const dayOfWeek = Math.floor(t / DAY) % 7;
    const angle = (2 * Math.PI * (t - phase)) / DAY;
    const seasonal =
      Math.max(0.05, 1 + dailyAmplitude * Math.sin(angle) + 0.15 * Math.sin(2 * angle)) *
      (dayOfWeek >= 5 ? weekend : 1);
    const level =
      (1 + trendPerWeek * (t / WEEK)) *
      (dayLevels[Math.floor(t / DAY)] as number) *
      (hourLevels[Math.floor(t / 60)] as number);
    let rate = mean * seasonal * level * Math.exp(0.08 * random.normal());
    let errorPoints = 0;
    let latencyFactor = 1;
    for (const incident of incidents) {
      const s = strength(incident, t);
      if (s === 0) continue;
      if (metric === "request_count") rate *= incident.size ** s;
      else if (metric === "error_rate") errorPoints += incident.size * s;
      else latencyFactor *= incident.size ** s;
    }
    const n = random.poisson(rate);
    requests[t] = n;
    if (metric === "error_rate") {
      const base = baseError * (1 + 0.2 * Math.sin(angle)) * Math.exp(0.25 * random.normal());
      errors[t] = random.binomial(n, Math.min(1, (base + errorPoints) / 100));
    }
    inWindow += n;
    errorsInWindow += errors[t] as number;
    if (t - span >= 0) {
      inWindow -= requests[t - span] as number;
      errorsInWindow -= errors[t - span] as number;
    }
    let p95: number | null = null;
    if (metric === "p95_latency_ms") {
      const histogram = ring[t % span] as Uint32Array;
      for (let b = 0; b < BINS; b += 1) sliding[b] = (sliding[b] as number) - (histogram[b] as number);
      histogram.fill(0);
      const mu = Math.log(medianLatency * latencyFactor) + 0.15 * Math.sin(angle) + 0.05 * random.normal();
      for (let i = 0; i < n; i += 1) {
        // A few requests are much slower (cold caches, retries): a heavier tail than log-normal.
        const slow = random.uniform() < 0.02 ? Math.log(4) : 0;
        const index = binOf(Math.exp(mu + slow + sigma * random.normal()));
        histogram[index] = (histogram[index] as number) + 1;
        sliding[index] = (sliding[index] as number) + 1;
      }
      if (inWindow > 0) {
        const rank = Math.ceil(0.95 * inWindow);
        let seen = 0;
        for (let b = 0; b < BINS; b += 1) {
          seen += sliding[b] as number;
          if (seen >= rank) {
            p95 = binValue(b);
            break;
          }
        }
      }
    }
    // windows[t + 1] covers minutes [t + 1 - span, t + 1).
    windows.push({ requests: inWindow, errors: errorsInWindow, p95 });
  }
  return { metric, incidents, windows };
}

// ---- replay ----

interface SeriesResult {
  readonly detections: Array<{ kind: IncidentKind; ttd: number | null }>;
  readonly falseAlerts: number;
}

const EMPTY: BucketStats = { requests: 0, errors: 0, p95: null };

function replay(series: Series): SeriesResult {
  const span = WINDOW_SECONDS / 60;
  const params = {
    metric: series.metric,
    sensitivity: SENSITIVITY,
    direction: defaultDirection(series.metric),
    minRequests: MIN_REQUESTS,
  };
  let progress: { state: AlertState; streak: number } = { state: "ok", streak: 0 };
  const firings: number[] = [];
  const trace = new Map<number, string>();
  for (let t = HISTORY_WEEKS * WEEK; t < series.windows.length; t += 1) {
    const buckets = {
      at: (week: number, bucket: number) => series.windows[t - week * WEEK - bucket * span] ?? EMPTY,
    };
    const verdict = evaluateAnomaly(historyAt(buckets, WINDOW_SECONDS), params);
    if (DEBUG)
      trace.set(
        t,
        `${verdict.status}:${verdict.value?.toFixed(1)}/${verdict.expected?.toFixed(1)}[${verdict.lower?.toFixed(1)}-${verdict.upper?.toFixed(1)}]w${verdict.weeksUsed}`,
      );
    const transition = nextState(progress, verdict.breach, { forEvaluations: FOR });
    if (transition.state === "firing" && transition.changedFrom !== undefined) {
      firings.push(t);
      if (DEBUG && !series.incidents.some((i) => t >= i.start && t <= i.end + span + FOR))
        debugFiring(series, t, verdict);
    }
    progress = { state: transition.state, streak: transition.streak };
  }
  const scored = series.incidents.filter((incident) => incident.scored);
  // A firing belongs to an incident from its onset until its last minute has left the window.
  const explained = (t: number) =>
    series.incidents.some((incident) => t >= incident.start && t <= incident.end + span + FOR);
  return {
    detections: scored.map((incident) => {
      const first = firings.find((t) => t >= incident.start && t <= incident.end + span + FOR);
      if (DEBUG && (first === undefined || first - referenceOf(incident) > TARGET_TTD_MIN)) {
        const at = referenceOf(incident);
        say(
          `    miss ${series.metric} ${incident.kind} size ${incident.size.toFixed(2)} ttd ${first === undefined ? "never" : first - at}: ` +
            [0, 2, 4, 6].map((d) => trace.get(at + d)).join(" "),
        );
      }
      return {
        kind: incident.kind,
        ttd: first === undefined ? null : Math.max(0, first - referenceOf(incident)),
      };
    }),
    falseAlerts: firings.filter((t) => !explained(t)).length,
  };
}

const DEBUG = process.env.BENCH_DEBUG === "1";

function debugFiring(series: Series, t: number, verdict: ReturnType<typeof evaluateAnomaly>): void {
  const nearest = series.incidents
    .map((incident) => ({ incident, distance: t - incident.start }))
    .sort((a, b) => Math.abs(a.distance) - Math.abs(b.distance))[0];
  const round = (x: number | null) => (x === null ? "–" : x.toFixed(2));
  say(
    `    fire ${series.metric} t=${t} (${nearest?.incident.kind} ${nearest?.distance} min from onset, ` +
      `ends ${nearest === undefined ? "?" : nearest.incident.end - t} min later) value ${round(verdict.value)} ` +
      `expected ${round(verdict.expected)} band ${round(verdict.lower)}–${round(verdict.upper)} score ${round(verdict.score)} ` +
      `n ${series.windows[t]?.requests} weeks ${[1, 2, 3, 4].map((k) => series.windows[t - k * WEEK]?.requests).join(",")} ` +
      `levels ${[0, 1, 2, 3, 4].map((k) => Array.from({ length: 24 }, (_, j) => series.windows[t - k * WEEK - (j + 1) * 5]?.requests ?? 0).reduce((a, b) => a + b, 0)).join(",")}`,
  );
}

// ---- report ----

const started = Date.now();
say(
  `bench:anomaly — seed ${SEED}, ${SERIES} series per metric, ${HISTORY_WEEKS} weeks of history + ${EVAL_WEEKS} ` +
    `evaluated weeks each, window ${WINDOW_SECONDS} s evaluated every minute, sensitivity ${SENSITIVITY}, ` +
    `for ${FOR} evaluations, min requests ${MIN_REQUESTS}`,
);
const all: Array<{ metric: AnomalyMetric; kind: IncidentKind; ttd: number | null }> = [];
let falseTotal = 0;
for (const [m, metric] of METRICS.entries()) {
  let falseAlerts = 0;
  const detections: Array<{ kind: IncidentKind; ttd: number | null }> = [];
  for (let index = 0; index < SERIES; index += 1) {
    const random = new Random(SEED * 1_000_003 + m * 10_007 + index);
    const result = replay(makeSeries(random, metric));
    falseAlerts += result.falseAlerts;
    detections.push(...result.detections);
  }
  falseTotal += falseAlerts;
  all.push(...detections.map((d) => ({ metric, ...d })));
  const within = detections.filter((d) => d.ttd !== null && d.ttd <= TARGET_TTD_MIN).length;
  const found = detections.flatMap((d) => (d.ttd === null ? [] : [d.ttd]));
  say(
    `  ${metric.padEnd(15)} incidents ${String(detections.length).padStart(4)}  within 5 min ` +
      `${pct(within / detections.length)}  detected at all ${pct(found.length / detections.length)}  ` +
      `median TTD ${found.length === 0 ? "–" : `${median(found)} min`}  false alerts ${falseAlerts} ` +
      `(${((falseAlerts / (SERIES * EVAL_WEEKS)) * 100).toFixed(2)} per 100 series-weeks)`,
  );
}
say();
const kinds: IncidentKind[] = ["spike", "drop", "level shift", "drift"];
for (const kind of kinds) {
  const of = all.filter((d) => d.kind === kind);
  const found = of.flatMap((d) => (d.ttd === null ? [] : [d.ttd]));
  say(
    `  ${kind.padEnd(12)} ${String(of.length).padStart(4)} planted  within 5 min ` +
      `${pct(of.filter((d) => d.ttd !== null && d.ttd <= TARGET_TTD_MIN).length / of.length)}  ` +
      `median TTD ${found.length === 0 ? "–" : `${median(found)} min`}`,
  );
}
const seriesWeeks = SERIES * METRICS.length * EVAL_WEEKS;
const detected = all.filter((d) => d.ttd !== null && d.ttd <= TARGET_TTD_MIN).length / all.length;
const ttds = all.flatMap((d) => (d.ttd === null ? [] : [d.ttd]));
const falsePer100 = (falseTotal / seriesWeeks) * 100;
say();
say(
  `detection within ${TARGET_TTD_MIN} min: ${pct(detected)} of ${all.length} planted incidents ` +
    `(target >= ${pct(TARGET_DETECTION)}) ${detected >= TARGET_DETECTION ? "MET" : "MISSED"}`,
);
say(
  `median time to detection: ${ttds.length === 0 ? "–" : `${median(ttds)} min`} (from onset; drifts from full size)`,
);
say(
  `false alerts: ${falseTotal} in ${seriesWeeks} series-weeks = ${falsePer100.toFixed(2)} per 100 series-weeks ` +
    `(target <= ${TARGET_FALSE_PER_100}) ${falsePer100 <= TARGET_FALSE_PER_100 ? "MET" : "MISSED"}`,
);
say(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);

function pct(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
