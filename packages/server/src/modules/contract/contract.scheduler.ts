// Runs the inference job inside the server process on one instance at a time, the way the alert
// evaluator runs (lib/leased-loop.ts): the lease expires after 1.5 intervals, so a dead holder's
// successor takes over within two ticks.
import type { Logger } from "pino";
import type { Clock } from "../../clock.js";
import { createLeasedLoop, type LeasedLoop } from "../../lib/leased-loop.js";
import type { LeasesRepo } from "../../stores/metadata/repos/leases.repo.js";
import type { ContractJob, ContractPassSummary } from "./contract.job.js";

export const CONTRACT_LEASE = "api-contract-inference";

export type ContractScheduler = LeasedLoop<ContractPassSummary>;

export function createContractScheduler(deps: {
  leases: LeasesRepo;
  job: ContractJob;
  clock: Clock;
  logger: Logger;
  intervalMs: number;
  /** Told of each pass's new versions (alerting). */
  onPass: (summary: ContractPassSummary) => Promise<void>;
}): ContractScheduler {
  const { job, logger, intervalMs } = deps;
  return createLeasedLoop({
    ...deps,
    lease: CONTRACT_LEASE,
    leaseMs: Math.round(intervalMs * 1.5),
    label: "contract inference",
    pass: async (now, instance) => {
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
    },
  });
}
