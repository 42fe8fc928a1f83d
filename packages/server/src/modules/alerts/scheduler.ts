// Runs the evaluator inside the server process, on exactly one instance per tick: each tick the
// instance takes or renews a lease row in the metadata store (expiring after 1.5 intervals) and
// evaluates only while it holds it. When the holder dies its lease runs out and another instance
// takes over at its next tick, within two intervals; a clean shutdown releases the lease at once.
// The first tick comes one interval after start.
import { hostname } from "node:os";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { newId } from "../../lib/ids.js";
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

export interface AlertScheduler {
  /** This instance's name in the lease row. */
  readonly instance: string;
  /** Starts ticking every interval. */
  start(): void;
  /** One tick now: take or renew the lease and, when held, evaluate. Undefined when not held. */
  tick(): Promise<PassSummary | undefined>;
  /** Stops ticking, waits for a tick under way, and releases the lease. */
  close(): Promise<void>;
}

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
  const { leases, evaluator, deliveries, clock, logger, intervalMs, observer } = deps;
  const passes = deps.passes ?? [];
  const instance = `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  const leaseMs = Math.round(intervalMs * 1.5);
  let holding = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let current: Promise<PassSummary | undefined> = Promise.resolve(undefined);

  async function tickOnce(): Promise<PassSummary | undefined> {
    const now = clock.now();
    const held = await leases.acquire(
      EVALUATOR_LEASE,
      instance,
      toIsoTimestamp(now),
      toIsoTimestamp(new Date(now.getTime() + leaseMs)),
    );
    if (held !== holding) {
      holding = held;
      logger.info({ instance }, held ? "alert evaluator lease acquired" : "alert evaluator lease lost");
    }
    // Every instance sends notifications, whoever evaluates: rows a dead instance had claimed
    // are picked up here once their claim runs out.
    deliveries.kick();
    if (!held) {
      logger.debug({ instance }, "alert evaluator lease held by another instance");
      return undefined;
    }
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
  }

  function tick(): Promise<PassSummary | undefined> {
    current = current.catch(() => undefined).then(() => tickOnce());
    return current;
  }

  function schedule(): void {
    if (closed) return;
    timer = setTimeout(() => {
      tick()
        .catch((error: unknown) => logger.error({ err: error }, "alert evaluation tick failed"))
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  }

  return {
    instance,
    start: schedule,
    tick,
    async close() {
      closed = true;
      clearTimeout(timer);
      await current.catch(() => undefined);
      if (holding) await leases.release(EVALUATOR_LEASE, instance).catch(() => undefined);
    },
  };
}
