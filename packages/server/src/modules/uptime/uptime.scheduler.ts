// Runs the uptime checks inside the server process on one instance at a time, the way the alert
// evaluator runs (lib/leased-loop.ts): a tick looks for due checks and runs them while holding
// the lease.
import type { Logger } from "pino";
import type { Clock } from "../../clock.js";
import { createLeasedLoop, type LeasedLoop } from "../../lib/leased-loop.js";
import type { LeasesRepo } from "../../stores/metadata/repos/leases.repo.js";
import type { UptimePassSummary, UptimeRunner } from "./uptime.runner.js";

export const UPTIME_LEASE = "uptime-checks";

/** How often the runner looks for due checks: well under the shortest interval (30 s). */
export const UPTIME_TICK_MS = 5_000;

export type UptimeScheduler = LeasedLoop<UptimePassSummary>;

export function createUptimeScheduler(deps: {
  leases: LeasesRepo;
  runner: UptimeRunner;
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
  /** Told when a pass queued notifications (the delivery worker sends them). */
  onNotifications: () => void;
}): UptimeScheduler {
  const { runner, logger } = deps;
  const intervalMs = deps.intervalMs ?? UPTIME_TICK_MS;
  return createLeasedLoop({
    ...deps,
    lease: UPTIME_LEASE,
    intervalMs,
    // A pass may take as long as its slowest check (30 s at most): the lease outlives it.
    leaseMs: Math.round(intervalMs * 1.5) + 30_000,
    label: "uptime",
    pass: async (now, instance) => {
      const summary = await runner.run(now);
      if (summary.checks > 0) logger.debug({ instance, ...summary }, "uptime pass");
      if (summary.notifications > 0) deps.onNotifications();
      return summary;
    },
  });
}
