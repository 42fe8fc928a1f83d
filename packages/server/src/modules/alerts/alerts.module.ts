// Assembles alerting over the stores: the rules and channels services the routes call, the
// evaluator with its lease-holding scheduler, and the outbox's delivery worker. One close().
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { createAlertRulesRepo } from "../../stores/metadata/repos/alert-rules.repo.js";
import { createLeasesRepo } from "../../stores/metadata/repos/leases.repo.js";
import { createNotificationDeliveriesRepo } from "../../stores/metadata/repos/notification-deliveries.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { AuditTrail } from "../audit/index.js";
import type { MailTransport } from "../auth/index.js";
import type { RateLimiter } from "../rate-limits/index.js";
import { type AlertsBacklog, type AlertsObserver, unobserved } from "./alerts.observer.js";
import { type ChannelsService, createChannelsService } from "./channels.service.js";
import { createDeliveryWorker, type DeliveryBounds, type DeliveryWorker } from "./deliveries.worker.js";
import { createEvaluator, type Evaluator } from "./evaluator.js";
import { type AlertScheduler, createAlertScheduler, type EvaluationPass } from "./scheduler.js";
import { createRulesService, type RulesService } from "./rules.service.js";

/** Past the ingest flush interval, how long a window waits for records still on their way. */
export const LATE_DATA_MARGIN_MS = 5_000;

export interface AlertsModuleDeps {
  readonly db: Kysely<MetadataTables>;
  readonly events: EventsExecutor;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly audit: AuditTrail;
  readonly mail: MailTransport;
  readonly rateLimiter: RateLimiter;
  readonly publicUrl: string;
  readonly evalIntervalSeconds: number;
  readonly allowPrivateTargets: boolean;
  /** Deadline of one webhook or Slack send, answer included. */
  readonly sendTimeoutMs: number;
  readonly deliveryBounds: DeliveryBounds;
  readonly ingestFlushIntervalMs: number;
  /** Pauses between delivery attempts (tests shorten them). */
  readonly retryDelaysMs?: readonly number[];
  /** Told of every evaluation pass and notification attempt (the server's metrics). */
  readonly observer?: AlertsObserver;
  /** Further evaluations run under the evaluator's lease each tick (SLO burn rates). */
  readonly passes?: readonly EvaluationPass[];
}

export interface AlertsModule {
  readonly rules: RulesService;
  readonly channels: ChannelsService;
  readonly evaluator: Evaluator;
  readonly scheduler: AlertScheduler;
  readonly deliveries: DeliveryWorker;
  /** Evaluation recency and outbox depth, as of now (read when metrics are scraped). */
  backlog(): Promise<AlertsBacklog>;
  /** Starts ticking (the server does; tests tick by hand). */
  start(): void;
  /** Stops the scheduler (releasing its lease) and the delivery worker. */
  close(): Promise<void>;
}

export function createAlertsModule(deps: AlertsModuleDeps): AlertsModule {
  const { db, clock, logger } = deps;
  const intervalMs = deps.evalIntervalSeconds * 1000;
  const observer = deps.observer ?? unobserved;
  const deliveries = createDeliveryWorker(
    { db, clock, logger, mail: deps.mail },
    {
      allowPrivateTargets: deps.allowPrivateTargets,
      timeoutMs: deps.sendTimeoutMs,
      bounds: deps.deliveryBounds,
      observer,
      ...(deps.retryDelaysMs === undefined ? {} : { retryDelaysMs: deps.retryDelaysMs }),
    },
  );
  const evaluator = createEvaluator({
    db,
    events: deps.events,
    logger,
    publicUrl: deps.publicUrl,
    latenessMs: deps.ingestFlushIntervalMs + LATE_DATA_MARGIN_MS,
    minGapMs: intervalMs / 2,
  });
  const scheduler = createAlertScheduler({
    leases: createLeasesRepo(db),
    evaluator,
    deliveries,
    clock,
    logger,
    intervalMs,
    observer,
    ...(deps.passes === undefined ? {} : { passes: deps.passes }),
  });
  const rulesRepo = createAlertRulesRepo(db);
  const outbox = createNotificationDeliveriesRepo(db);
  return {
    rules: createRulesService({
      db,
      events: deps.events,
      clock,
      audit: deps.audit,
      mail: deps.mail,
      rateLimiter: deps.rateLimiter,
      publicUrl: deps.publicUrl,
      allowPrivateTargets: deps.allowPrivateTargets,
      sendTimeoutMs: deps.sendTimeoutMs,
    }),
    channels: createChannelsService({
      db,
      clock,
      audit: deps.audit,
      allowPrivateTargets: deps.allowPrivateTargets,
    }),
    evaluator,
    scheduler,
    deliveries,
    async backlog() {
      const [evaluation, pending] = await Promise.all([
        rulesRepo.evaluationStatus(),
        outbox.countPending(toIsoTimestamp(clock.now())),
      ]);
      return {
        lastEvaluatedAt: evaluation.lastEvaluatedAt === null ? null : new Date(evaluation.lastEvaluatedAt),
        enabledRules: evaluation.enabled,
        deliveriesDue: pending.due,
        deliveriesWaiting: pending.waiting,
      };
    },
    start: () => scheduler.start(),
    async close() {
      await scheduler.close();
      await deliveries.close();
    },
  };
}
