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
/** The detection latency the defaults must meet (issue 24): a breaking change in traffic is
 *  notified within two minutes. */
export const DETECTION_TARGET_MS = 120_000;

/** When the passes run and what they read. */
export interface ContractTiming {
  /** Pause between the end of one pass and the start of the next (CONTRACT_INTERVAL_SECONDS). */
  readonly intervalMs: number;
  /** A pass reads calls older than this (the ingest flush interval plus LATE_DATA_MARGIN_MS). */
  readonly latenessMs: number;
}

/**
 * The longest time from a call being stored to its change being notified, given how long two
 * passes take (delivery included: a pass sends its notifications before it ends). A call stored
 * just too late for pass k (at its start minus the lateness) is read by pass k + 1, which starts
 * the interval after pass k ended and notifies before it ends itself:
 * lateness + pass k + interval + pass k + 1.
 */
export function detectionBoundMs(timing: ContractTiming, passesMs: readonly [number, number]): number {
  return timing.latenessMs + passesMs[0] + timing.intervalMs + passesMs[1];
}

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
  readonly timing: ContractTiming;
  start(): void;
  close(): Promise<void>;
}

export function createContractModule(deps: ContractModuleDeps): ContractModule {
  const repo = createApiContractsRepo(deps.db);
  const timing: ContractTiming = {
    intervalMs: deps.intervalSeconds * 1000,
    latenessMs: deps.ingestFlushIntervalMs + LATE_DATA_MARGIN_MS,
  };
  const job = createContractJob({
    repo,
    events: deps.events,
    logger: deps.logger,
    options: {
      samplePerOperation: deps.samplePerOperation,
      unusedDays: deps.unusedDays,
      latenessMs: timing.latenessMs,
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
    intervalMs: timing.intervalMs,
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
    timing,
    start: () => scheduler.start(),
    close: () => scheduler.close(),
  };
}
