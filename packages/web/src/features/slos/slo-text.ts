// Pure wording and shaping for SLOs: scope and indicator in words, percentages, the state's
// tone, and the form's draft turned into the create body (or the per-consumer template body).
import type {
  CreateSloBody,
  PerConsumerSloBody,
  Slo,
  SloState,
  SloStatus,
  SloWindowDays,
} from "@sightline/contracts";

export type StateTone = "success" | "warning" | "danger" | "info";

export const STATE_LABELS: Record<SloState, { label: string; tone: StateTone }> = {
  ok: { label: "OK", tone: "success" },
  slow_burn: { label: "Slow burn", tone: "warning" },
  fast_burn: { label: "Fast burn", tone: "danger" },
};

/** 99.9 → "99.9 %", 99.95612 → "99.956 %": enough digits to tell a target's nines apart. */
export function formatPercent(value: number | null, digits = 3): string {
  if (value === null) return "—";
  const rounded = Number(value.toFixed(digits));
  return `${rounded.toLocaleString("en-US", { maximumFractionDigits: digits })} %`;
}

/** Percent of budget left: whole numbers, negative once overspent. */
export function formatBudget(remaining: number | null): string {
  if (remaining === null) return "—";
  return `${remaining.toLocaleString("en-US", { maximumFractionDigits: 1 })} %`;
}

export function formatBurnRate(rate: number | null): string {
  if (rate === null) return "—";
  return `${rate.toLocaleString("en-US", { maximumFractionDigits: 2 })}×`;
}

export function formatMinutes(minutes: number): string {
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
}

export function scopeText(scope: Slo["scope"]): string {
  const parts: string[] = [scope.app === null ? "Whole project" : scope.app.name];
  if (scope.environment !== null) parts.push(scope.environment);
  if (scope.endpoints.length === 1) {
    const [one] = scope.endpoints;
    if (one) parts.push(`${one.method} ${one.route}`);
  } else if (scope.endpoints.length > 1) parts.push(`${scope.endpoints.length} endpoints`);
  if (scope.consumer !== null) parts.push(`consumer ${scope.consumer}`);
  if (scope.consumer_group !== null) parts.push(`group ${scope.consumer_group}`);
  return parts.join(" · ");
}

export function sliText(sli: Slo["sli"]): string {
  if (sli.kind === "latency") return `Faster than ${sli.threshold_ms.toLocaleString("en-US")} ms`;
  return sli.also_bad.length === 0 ? "Not 5xx" : `Not 5xx, ${sli.also_bad.join(", ")}`;
}

export function objectiveText(slo: Pick<Slo, "target" | "window_days">): string {
  return `${formatPercent(slo.target)} over ${slo.window_days} days`;
}

/** The burn rate of one of the status's windows (5, 30, 60, 360 minutes). */
export function burnRateOver(status: SloStatus, minutes: number): number | null {
  return status.burn_rates.find((one) => one.minutes === minutes)?.burn_rate ?? null;
}

/** What the form holds: strings as typed, turned into the body on submit. */
export interface SloDraft {
  readonly name: string;
  readonly app: string;
  readonly environment: string;
  /** "METHOD /route" entries. */
  readonly endpoints: readonly string[];
  readonly consumer: string;
  readonly kind: "availability" | "latency";
  /** Comma- or space-separated codes and classes ("429, 4xx"). */
  readonly alsoBad: string;
  readonly thresholdMs: string;
  readonly target: string;
  readonly windowDays: SloWindowDays;
  readonly alerting: boolean;
  readonly fastRate: string;
  readonly slowRate: string;
  readonly channelIds: readonly string[];
  /** Per-consumer template: one SLO for each of the top N consumers. */
  readonly perConsumer: boolean;
  readonly top: string;
}

export const NEW_SLO: SloDraft = {
  name: "",
  app: "",
  environment: "",
  endpoints: [],
  consumer: "",
  kind: "availability",
  alsoBad: "",
  thresholdMs: "300",
  target: "99.9",
  windowDays: 30,
  alerting: true,
  fastRate: "14.4",
  slowRate: "6",
  channelIds: [],
  perConsumer: false,
  top: "10",
};

/** A number as typed; NaN when it is not one, so the server names the field. */
const numberOf = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text));

function endpointOf(entry: string): { method: string; route: string } {
  const space = entry.indexOf(" ");
  return { method: entry.slice(0, space), route: entry.slice(space + 1) };
}

type Template = PerConsumerSloBody["template"];

function templateOf(draft: SloDraft): Template {
  const also = draft.alsoBad
    .split(/[\s,]+/)
    .map((code) => code.trim())
    .filter((code) => code !== "");
  return {
    name: draft.name.trim(),
    sli:
      draft.kind === "latency"
        ? { kind: "latency", threshold_ms: numberOf(draft.thresholdMs) }
        : { kind: "availability", also_bad: [...new Set(also)] },
    target: numberOf(draft.target),
    window_days: draft.windowDays,
    alerting: {
      enabled: draft.alerting,
      fast: {
        burn_rate: numberOf(draft.fastRate),
        long_window_minutes: 60,
        short_window_minutes: 5,
      },
      slow: {
        burn_rate: numberOf(draft.slowRate),
        long_window_minutes: 360,
        short_window_minutes: 30,
      },
    },
    channel_ids: [...draft.channelIds],
  };
}

function scopeOf(draft: SloDraft) {
  return {
    app: draft.app === "" ? null : draft.app,
    environment: draft.app === "" || draft.environment === "" ? null : draft.environment,
    endpoints: draft.app === "" ? [] : draft.endpoints.map(endpointOf),
  };
}

export function createBodyOf(draft: SloDraft): CreateSloBody {
  const consumer = draft.consumer.trim();
  return { ...templateOf(draft), scope: { ...scopeOf(draft), consumer: consumer === "" ? null : consumer } };
}

export function perConsumerBodyOf(draft: SloDraft): PerConsumerSloBody {
  return { template: templateOf(draft), scope: scopeOf(draft), top: numberOf(draft.top) };
}

/** One row of the burn-rate view: a window's rate and the threshold of the condition it belongs to. */
export interface BurnRow {
  readonly minutes: number;
  readonly rate: number | null;
  readonly threshold: number;
  readonly condition: "fast" | "slow";
  readonly over: boolean;
}

/**
 * The status's windows against the SLO's conditions: each window is the long or short window of
 * the fast or slow condition (5 min and 1 h fast, 30 min and 6 h slow by default).
 */
export function burnRows(slo: Pick<Slo, "alerting">, status: Pick<SloStatus, "burn_rates">): BurnRow[] {
  const { fast, slow } = slo.alerting;
  return status.burn_rates.map(({ minutes, burn_rate }) => {
    const isFast = minutes === fast.long_window_minutes || minutes === fast.short_window_minutes;
    const condition = isFast ? fast : slow;
    return {
      minutes,
      rate: burn_rate,
      threshold: condition.burn_rate,
      condition: isFast ? "fast" : "slow",
      over: burn_rate !== null && burn_rate > condition.burn_rate,
    };
  });
}

/**
 * The burn-down's days as chart buckets (UTC midnights) and its lines. A day without requests in
 * the window so far has spent nothing: its budget is drawn whole.
 */
export function burnDownSeries(
  days: readonly { date: string; budget_remaining: number | null; budget_spent: number | null }[],
) {
  return {
    buckets: days.map((day) => `${day.date}T00:00:00.000Z`),
    remaining: days.map((day) => day.budget_remaining ?? 100),
    spent: days.map((day) => day.budget_spent ?? 0),
  };
}
