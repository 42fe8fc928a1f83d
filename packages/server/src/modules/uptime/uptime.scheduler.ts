// Runs the uptime checks inside the server process on one instance at a time, the way the alert
// evaluator runs: each tick the instance takes or renews its own lease row (expiring after 1.5
// ticks) and runs the due checks only while holding it; a dead holder's lease runs out and
// another instance takes over at its next tick. A clean shutdown releases the lease at once.
import { hostname } from "node:os";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { newId } from "../../lib/ids.js";
import type { LeasesRepo } from "../../stores/metadata/repos/leases.repo.js";
import type { UptimePassSummary, UptimeRunner } from "./uptime.runner.js";

export const UPTIME_LEASE = "uptime-checks";

/** How often the runner looks for due checks: well under the shortest interval (30 s). */
export const UPTIME_TICK_MS = 5_000;

export interface UptimeScheduler {
  start(): void;
  /** One tick now: take or renew the lease and, when held, run the due checks. Undefined when not held. */
  tick(): Promise<UptimePassSummary | undefined>;
  close(): Promise<void>;
}

export function createUptimeScheduler(deps: {
  leases: LeasesRepo;
  runner: UptimeRunner;
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
  /** Told when a pass queued notifications (the delivery worker sends them). */
  onNotifications: () => void;
}): UptimeScheduler {
  const { leases, runner, clock, logger } = deps;
  const intervalMs = deps.intervalMs ?? UPTIME_TICK_MS;
  const instance = `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  // A pass may take as long as its slowest check (30 s at most): the lease outlives it.
  const leaseMs = Math.round(intervalMs * 1.5) + 30_000;
  let holding = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<UptimePassSummary | undefined> = Promise.resolve(undefined);

  async function tickOnce(): Promise<UptimePassSummary | undefined> {
    const now = clock.now();
    holding = await leases.acquire(
      UPTIME_LEASE,
      instance,
      toIsoTimestamp(now),
      toIsoTimestamp(new Date(now.getTime() + leaseMs)),
    );
    if (!holding) return undefined;
    const summary = await runner.run(now);
    if (summary.checks > 0) logger.debug({ instance, ...summary }, "uptime pass");
    if (summary.notifications > 0) deps.onNotifications();
    return summary;
  }

  function tick(): Promise<UptimePassSummary | undefined> {
    current = current.catch(() => undefined).then(() => tickOnce());
    return current;
  }

  function schedule(): void {
    if (closed) return;
    timer = setTimeout(() => {
      tick()
        .catch((error: unknown) => logger.error({ err: error }, "uptime tick failed"))
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  }

  return {
    start: schedule,
    tick,
    async close() {
      closed = true;
      clearTimeout(timer);
      await current.catch(() => undefined);
      if (holding) await leases.release(UPTIME_LEASE, instance).catch(() => undefined);
    },
  };
}
