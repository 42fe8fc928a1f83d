// Runs the evaluator inside the server process, on exactly one instance per tick: each tick the
// instance takes or renews a lease row in the metadata store (expiring after 1.5 intervals) and
// evaluates only while it holds it. When the holder dies its lease runs out and another instance
// takes over at its next tick, within two intervals; a clean shutdown releases the lease at once.
// The first tick comes one interval after start.
import type { Logger } from "pino";
import type { Clock } from "../../clock.js";
import { createLeasedLoop, type LeasedLoop } from "../../lib/leased-loop.js";
import type { LeasesRepo } from "../../stores/metadata/repos/leases.repo.js";
import type { AlertsObserver } from "./alerts.observer.js";
import type { DeliveryWorker } from "./deliveries.worker.js";
import type { Evaluator, PassSummary } from "./evaluator.js";

export const EVALUATOR_LEASE = "alerts-evaluator";

/** Another evaluation that runs under the same lease after the rules' pass (SLO burn rates). */
export interface EvaluationPass {
  readonly name: string;
  evaluate(now: Date): Promise<{ readonly notifications: number }>;
}

/** Starts ticking every interval; `tick` takes or renews the lease and, when held, evaluates;
 *  `close` stops ticking, waits for a tick under way, and releases the lease. */
export type AlertScheduler = LeasedLoop<PassSummary>;

export function createAlertScheduler(deps: {
  leases: LeasesRepo;
  evaluator: Evaluator;
  deliveries: DeliveryWorker;
  clock: Clock;
  logger: Logger;
  intervalMs: number;
  observer: AlertsObserver;
  passes?: readonly EvaluationPass[];
}): AlertScheduler {
  const { evaluator, deliveries, logger, intervalMs, observer } = deps;
  const passes = deps.passes ?? [];
  return createLeasedLoop({
    ...deps,
    lease: EVALUATOR_LEASE,
    leaseMs: Math.round(intervalMs * 1.5),
    label: "alert evaluator",
    // Every instance sends notifications, whoever evaluates: rows a dead instance had claimed
    // are picked up here once their claim runs out.
    everyTick: () => deliveries.kick(),
    pass: async (now, instance) => {
      const started = performance.now();
      const summary = await evaluator.evaluate(now);
      const ms = performance.now() - started;
      observer.evaluationCompleted(ms / 1000, summary);
      logger.debug({ instance, ...summary, ms: Math.round(ms) }, "alert evaluation pass");
      let queued = summary.notifications;
      for (const pass of passes) {
        // One pass failing must not stop the others nor the rules' next tick.
        try {
          queued += (await pass.evaluate(now)).notifications;
        } catch (error) {
          logger.error({ err: error, pass: pass.name }, "evaluation pass failed");
        }
      }
      if (queued > 0) deliveries.kick();
      return summary;
    },
  });
}
