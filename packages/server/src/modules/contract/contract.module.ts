// Assembles the live API contract over the stores: the inference job with its lease-holding
// scheduler, and the service the routes call. One close().
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Clock } from "../../clock.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { createApiContractsRepo } from "../../stores/metadata/repos/api-contracts.repo.js";
import { createLeasesRepo } from "../../stores/metadata/repos/leases.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { AppsService } from "../apps/index.js";
import { type ContractJob, type ContractPassSummary, createContractJob } from "./contract.job.js";
import { type ContractScheduler, createContractScheduler } from "./contract.scheduler.js";
import { type ContractService, createContractService } from "./contract.service.js";

/** Past the ingest flush interval, how long a pass waits for calls still on their way. */
export const LATE_DATA_MARGIN_MS = 5_000;
/** How far back the first pass over a project reads. */
export const INITIAL_LOOKBACK_MS = 86_400_000;

export interface ContractModuleDeps {
  readonly db: Kysely<MetadataTables>;
  readonly events: EventsExecutor;
  readonly apps: AppsService;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly intervalSeconds: number;
  readonly samplePerOperation: number;
  readonly unusedDays: number;
  readonly ingestFlushIntervalMs: number;
  /** Told of each pass (contract-change alerting). */
  readonly onPass?: (summary: ContractPassSummary) => Promise<void>;
}

export interface ContractModule {
  readonly service: ContractService;
  readonly job: ContractJob;
  readonly scheduler: ContractScheduler;
  start(): void;
  close(): Promise<void>;
}

export function createContractModule(deps: ContractModuleDeps): ContractModule {
  const repo = createApiContractsRepo(deps.db);
  const job = createContractJob({
    repo,
    events: deps.events,
    logger: deps.logger,
    options: {
      samplePerOperation: deps.samplePerOperation,
      unusedDays: deps.unusedDays,
      latenessMs: deps.ingestFlushIntervalMs + LATE_DATA_MARGIN_MS,
      initialLookbackMs: INITIAL_LOOKBACK_MS,
    },
  });
  const scheduler = createContractScheduler({
    leases: createLeasesRepo(deps.db),
    job,
    clock: deps.clock,
    logger: deps.logger,
    intervalMs: deps.intervalSeconds * 1000,
    onPass: deps.onPass ?? (async () => undefined),
  });
  return {
    service: createContractService({
      repo,
      apps: deps.apps,
      events: deps.events,
      clock: deps.clock,
      unusedDays: deps.unusedDays,
    }),
    job,
    scheduler,
    start: () => scheduler.start(),
    close: () => scheduler.close(),
  };
}
