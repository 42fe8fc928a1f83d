import { describe, expect, it } from "vitest";
import { breaches, nextState, type RuleCondition } from "./state-machine.js";

const rule = (forEvaluations: number): RuleCondition => ({ comparator: "gt", threshold: 5, forEvaluations });

describe("alert state machine", () => {
  it("holds pending until the condition has held for_evaluations times, then fires once", () => {
    const condition = rule(3);
    let progress = { state: "ok" as const, streak: 0 } as ReturnType<typeof nextState>;
    const seen: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      progress = nextState(progress, true, condition);
      seen.push(`${progress.state}:${progress.changedFrom ?? "-"}:${progress.notify}`);
    }
    expect(seen).toEqual(["pending:ok:false", "pending:-:false", "firing:pending:true", "firing:-:false"]);
  });

  it("fires at once with for_evaluations 1 and notifies when it resolves", () => {
    const fired = nextState({ state: "ok", streak: 0 }, true, rule(1));
    expect(fired).toMatchObject({ state: "firing", changedFrom: "ok", notify: true });
    expect(nextState(fired, false, rule(1))).toMatchObject({
      state: "ok",
      changedFrom: "firing",
      notify: true,
    });
  });

  it("goes back from pending to ok without notifying", () => {
    const pending = nextState({ state: "ok", streak: 0 }, true, rule(2));
    expect(nextState(pending, false, rule(2))).toMatchObject({ state: "ok", streak: 0, notify: false });
  });

  it("never breaches on a value that could not be computed", () => {
    expect(breaches(null, { comparator: "lt", threshold: 1, forEvaluations: 1 })).toBe(false);
    expect(breaches(0, { comparator: "lt", threshold: 1, forEvaluations: 1 })).toBe(true);
    expect(breaches(5, { comparator: "gte", threshold: 5, forEvaluations: 1 })).toBe(true);
    expect(breaches(5, { comparator: "gt", threshold: 5, forEvaluations: 1 })).toBe(false);
  });
});
