// Runs the inference job inside the server process on one instance at a time, the way the alert
// evaluator runs: each tick the instance takes or renews its own lease row (expiring after 1.5
// intervals) and runs a pass only while holding it; a dead holder's lease runs out and another
// instance takes over at its next tick. A clean shutdown releases the lease at once.
import { hostname } from "node:os";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { newId } from "../../lib/ids.js";
import type { LeasesRepo } from "../../stores/metadata/repos/leases.repo.js";
import type { ContractJob, ContractPassSummary } from "./contract.job.js";

export const CONTRACT_LEASE = "api-contract-inference";

export interface ContractScheduler {
  start(): void;
  /** One tick now: take or renew the lease and, when held, run a pass. Undefined when not held. */
  tick(): Promise<ContractPassSummary | undefined>;
  close(): Promise<void>;
}

export function createContractScheduler(deps: {
  leases: LeasesRepo;
  job: ContractJob;
  clock: Clock;
  logger: Logger;
  intervalMs: number;
  /** Told of each pass's new versions (alerting). */
  onPass: (summary: ContractPassSummary) => Promise<void>;
}): ContractScheduler {
  const { leases, job, clock, logger, intervalMs } = deps;
  const instance = `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  const leaseMs = Math.round(intervalMs * 1.5);
  let holding = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<ContractPassSummary | undefined> = Promise.resolve(undefined);

  async function tickOnce(): Promise<ContractPassSummary | undefined> {
    const now = clock.now();
    holding = await leases.acquire(
      CONTRACT_LEASE,
      instance,
      toIsoTimestamp(now),
      toIsoTimestamp(new Date(now.getTime() + leaseMs)),
    );
    if (!holding) return undefined;
    const started = performance.now();
    const summary = await job.run(now);
    logger.debug(
      {
        instance,
        groups: summary.groups,
        versions: summary.versions.length,
        ms: Math.round(performance.now() - started),
      },
      "contract inference pass",
    );
    await deps.onPass(summary);
    return summary;
  }

  function tick(): Promise<ContractPassSummary | undefined> {
    current = current.catch(() => undefined).then(() => tickOnce());
    return current;
  }

  function schedule(): void {
    if (closed) return;
    timer = setTimeout(() => {
      tick()
        .catch((error: unknown) => logger.error({ err: error }, "contract inference tick failed"))
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
      if (holding) await leases.release(CONTRACT_LEASE, instance).catch(() => undefined);
    },
  };
}
