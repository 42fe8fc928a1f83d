// The life of a rule, one evaluation at a time: ok -> pending (the condition holds, not yet for
// long enough) -> firing (held for `for_evaluations` evaluations in a row) -> ok (resolved). A
// pending rule whose condition stops holding goes back to ok without having notified anyone.
import type { AlertComparator, AlertState } from "@sightline/contracts";

export interface RuleCondition {
  readonly comparator: AlertComparator;
  readonly threshold: number;
  readonly forEvaluations: number;
}

/** What the state machine needs of a rule of any kind: how long the condition must hold. */
export type Persistence = Pick<RuleCondition, "forEvaluations">;

export interface RuleProgress {
  readonly state: AlertState;
  /** Evaluations in a row the condition has held. */
  readonly streak: number;
}

export interface Transition extends RuleProgress {
  /** The state before, when this evaluation changed it. */
  readonly changedFrom: AlertState | undefined;
  /** Whether the change is one people hear about: firing, or resolved after firing. */
  readonly notify: boolean;
}

export function compare(value: number, comparator: AlertComparator, threshold: number): boolean {
  switch (comparator) {
    case "gt":
      return value > threshold;
    case "gte":
      return value >= threshold;
    case "lt":
      return value < threshold;
    case "lte":
      return value <= threshold;
  }
}

/** Whether an observed value breaches the rule; a value that could not be computed never does. */
export function breaches(value: number | null, condition: RuleCondition): boolean {
  return value !== null && compare(value, condition.comparator, condition.threshold);
}

export function nextState(current: RuleProgress, breached: boolean, condition: Persistence): Transition {
  const from = current.state;
  if (!breached) {
    return {
      state: "ok",
      streak: 0,
      changedFrom: from === "ok" ? undefined : from,
      notify: from === "firing",
    };
  }
  const streak = current.streak + 1;
  if (from === "firing") return { state: "firing", streak, changedFrom: undefined, notify: false };
  const state: AlertState = streak >= condition.forEvaluations ? "firing" : "pending";
  return { state, streak, changedFrom: state === from ? undefined : from, notify: state === "firing" };
}
