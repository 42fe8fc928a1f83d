// Assembles the live API contract over the stores: the inference job with its lease-holding
// scheduler, the service the routes call, and contract-change alerting. One close().
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Clock } from "../../clock.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { createApiContractsRepo } from "../../stores/metadata/repos/api-contracts.repo.js";
import { createLeasesRepo } from "../../stores/metadata/repos/leases.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { AppsService } from "../apps/index.js";
import type { MailTransport } from "../auth/index.js";
import { type ContractAlerts, createContractAlerts } from "./contract-alerts.service.js";
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
  /** Notification delivery, as the alerts' (same channels, same target rules and deadline). */
  readonly mail: MailTransport;
  readonly publicUrl: string;
  readonly allowPrivateTargets: boolean;
  readonly sendTimeoutMs: number;
  /** Pauses between notification attempts (tests shorten them). */
  readonly retryDelaysMs?: readonly number[];
}

export interface ContractModule {
  readonly service: ContractService;
  readonly alerts: ContractAlerts;
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
  const alerts = createContractAlerts({
    db: deps.db,
    apps: deps.apps,
    clock: deps.clock,
    logger: deps.logger,
    mail: deps.mail,
    publicUrl: deps.publicUrl,
    allowPrivateTargets: deps.allowPrivateTargets,
    sendTimeoutMs: deps.sendTimeoutMs,
    ...(deps.retryDelaysMs === undefined ? {} : { retryDelaysMs: deps.retryDelaysMs }),
  });
  const scheduler = createContractScheduler({
    leases: createLeasesRepo(deps.db),
    job,
    clock: deps.clock,
    logger: deps.logger,
    intervalMs: deps.intervalSeconds * 1000,
    // New versions are notified right after the pass that made them; earlier failures retried.
    onPass: async (summary: ContractPassSummary) => {
      await alerts.notifyPass(summary);
      await alerts.deliverDue();
    },
  });
  return {
    service: createContractService({
      repo,
      apps: deps.apps,
      events: deps.events,
      clock: deps.clock,
      unusedDays: deps.unusedDays,
    }),
    alerts,
    job,
    scheduler,
    start: () => scheduler.start(),
    close: () => scheduler.close(),
  };
}
