// The arithmetic of an objective and the multi-window, multi-burn-rate policy, on figures worked
// out by hand.
import { DEFAULT_BURN_ALERTS } from "@sightline/contracts";
import { describe, expect, it } from "vitest";
import { allowedBad, attainment, budgetRemaining, burnRate, policyState, transitionOf } from "./slo-math.js";

const policy = DEFAULT_BURN_ALERTS;

describe("objective arithmetic", () => {
  it("computes attainment, allowed bad requests, budget left and burn rate", () => {
    const counts = { requests: 1000, bad: 5 };
    expect(attainment(counts)).toBe(99.5);
    expect(allowedBad(1000, 99)).toBe(10);
    expect(budgetRemaining(counts, 99)).toBe(50);
    expect(burnRate(counts, 99)).toBe(0.5);
    expect(burnRate({ requests: 10, bad: 1 }, 99)).toBe(10);
    // Overspent: 30 bad of 10 allowed leaves -200% of the budget.
    expect(budgetRemaining({ requests: 1000, bad: 30 }, 99)).toBe(-200);
  });

  it("has no figure without requests", () => {
    const none = { requests: 0, bad: 0 };
    expect(attainment(none)).toBeNull();
    expect(burnRate(none, 99.9)).toBeNull();
    expect(budgetRemaining(none, 99.9)).toBeNull();
  });
});

describe("burn-rate policy", () => {
  const rates = (
    fastLong: number | null,
    fastShort: number | null,
    slowLong: number | null,
    slowShort: number | null,
  ) => ({
    fastLong,
    fastShort,
    slowLong,
    slowShort,
  });

  it("fires fast only when both of its windows burn faster than 14.4x", () => {
    expect(policyState(rates(20, 15, 20, 20), policy)).toBe("fast_burn");
    // The short window has recovered: the fast condition no longer holds, the slow one does.
    expect(policyState(rates(20, 2, 20, 20), policy)).toBe("slow_burn");
    // Exactly the rate is not above it.
    expect(policyState(rates(14.4, 14.4, 1, 1), policy)).toBe("ok");
  });

  it("fires slow when both of its windows burn faster than 6x, and a window without data never fires", () => {
    expect(policyState(rates(5, 5, 7, 6.5), policy)).toBe("slow_burn");
    expect(policyState(rates(5, 5, 7, null), policy)).toBe("ok");
    expect(policyState(rates(null, 30, 1, 1), policy)).toBe("ok");
  });

  it("honours configured rates", () => {
    const custom = { fast: { ...policy.fast, burn_rate: 2 }, slow: { ...policy.slow, burn_rate: 1 } };
    expect(policyState(rates(3, 3, 0, 0), custom)).toBe("fast_burn");
    expect(policyState(rates(1.5, 1.5, 1.5, 1.5), custom)).toBe("slow_burn");
  });

  it("notifies when a burn starts or speeds up and when it stops, not when it slows", () => {
    expect(transitionOf("ok", "ok")).toBeUndefined();
    expect(transitionOf("ok", "slow_burn")?.notify).toBe("firing");
    expect(transitionOf("slow_burn", "fast_burn")?.notify).toBe("firing");
    expect(transitionOf("fast_burn", "slow_burn")?.notify).toBe("none");
    expect(transitionOf("fast_burn", "ok")?.notify).toBe("resolved");
  });
});
