// What alerting reports as it works, for the server's metrics: evaluation passes and
// notification attempts. The metrics module implements it; alerting knows nothing of Prometheus.
import type { PassSummary } from "./evaluator.js";

/** How one send attempt ended: sent, failed with a retry scheduled, or failed for good. */
export type DeliveryOutcome = "delivered" | "retrying" | "failed";

export interface AlertsObserver {
  /** A pass this instance ran (it held the evaluator lease) has finished. */
  evaluationCompleted(seconds: number, summary: PassSummary): void;
  deliveryAttempted(channelType: string, outcome: DeliveryOutcome): void;
}

/** The observer of a module nobody measures. */
export const unobserved: AlertsObserver = {
  evaluationCompleted: () => undefined,
  deliveryAttempted: () => undefined,
};

/** The outbox and evaluator as an operator sees them, read from the metadata store (so the
 *  same on every instance). */
export interface AlertsBacklog {
  /** The latest evaluation of any enabled rule, by any instance; null: none yet. */
  readonly lastEvaluatedAt: Date | null;
  readonly enabledRules: number;
  /** Pending notifications whose (next) attempt is due now. */
  readonly deliveriesDue: number;
  /** Pending notifications waiting for a retry later. */
  readonly deliveriesWaiting: number;
}
