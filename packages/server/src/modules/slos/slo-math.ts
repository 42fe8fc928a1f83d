// The arithmetic of an objective, apart from any store: attainment, error budget, burn rate, and
// the multi-window, multi-burn-rate policy that turns burn rates into a state. Percentages are
// computed as `bad × 100 / (requests × (100 − target))` so a target like 99 stays exact.
import type { BurnCondition, SloState } from "@sightline/contracts";
import type { Counts } from "../../stores/events/queries/slos/slo.js";

/** Percent of good requests; null without requests. */
export function attainment(counts: Counts): number | null {
  return counts.requests === 0 ? null : ((counts.requests - counts.bad) * 100) / counts.requests;
}

/** Bad requests the objective allows among `requests`: requests × (1 − target). */
export function allowedBad(requests: number, target: number): number {
  return (requests * (100 - target)) / 100;
}

/** How many times faster than allowed the budget burns: the bad share over (1 − target); null without requests. */
export function burnRate(counts: Counts, target: number): number | null {
  if (counts.requests === 0) return null;
  return (counts.bad * 100) / (counts.requests * (100 - target));
}

/** Percent of the window's budget left (negative once overspent); null without requests. */
export function budgetRemaining(counts: Counts, target: number): number | null {
  if (counts.requests === 0) return null;
  return 100 - (counts.bad * 100 * 100) / (counts.requests * (100 - target));
}

export interface BurnPolicy {
  readonly fast: BurnCondition;
  readonly slow: BurnCondition;
}

/** The four windows the policy reads, in minutes, in the order `PolicyCounts` holds them. */
export function policyWindowsMinutes(policy: BurnPolicy): [number, number, number, number] {
  return [
    policy.fast.long_window_minutes,
    policy.fast.short_window_minutes,
    policy.slow.long_window_minutes,
    policy.slow.short_window_minutes,
  ];
}

export interface PolicyRates {
  readonly fastLong: number | null;
  readonly fastShort: number | null;
  readonly slowLong: number | null;
  readonly slowShort: number | null;
}

/** Both windows of a condition burn faster than its rate (a window without requests never does). */
function holds(long: number | null, short: number | null, condition: BurnCondition): boolean {
  return long !== null && short !== null && long > condition.burn_rate && short > condition.burn_rate;
}

/**
 * The Google SRE workbook's policy: fast burn when the long and the short window of the fast
 * condition both exceed its rate (default 14.4× over 1 h and 5 min: 2% of a 30-day budget in an
 * hour), else slow burn likewise (6× over 6 h and 30 min: 5% in six hours), else ok. The short
 * window makes the alert stop soon after the burning does.
 */
export function policyState(rates: PolicyRates, policy: BurnPolicy): SloState {
  if (holds(rates.fastLong, rates.fastShort, policy.fast)) return "fast_burn";
  if (holds(rates.slowLong, rates.slowShort, policy.slow)) return "slow_burn";
  return "ok";
}

export interface SloTransition {
  readonly from: SloState;
  readonly to: SloState;
  /** firing: a burn began or got faster; resolved: burning stopped; none: nobody hears of it. */
  readonly notify: "firing" | "resolved" | "none";
}

const SEVERITY: Record<SloState, number> = { ok: 0, slow_burn: 1, fast_burn: 2 };

/** The change from `from` to `to`, undefined when there is none. */
export function transitionOf(from: SloState, to: SloState): SloTransition | undefined {
  if (from === to) return undefined;
  if (to === "ok") return { from, to, notify: "resolved" };
  return { from, to, notify: SEVERITY[to] > SEVERITY[from] ? "firing" : "none" };
}
