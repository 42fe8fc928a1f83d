// The composition root's first half: opens every store and service once, from Config, and
// closes them in reverse order with one close(). Nothing here knows about HTTP.
import type { Logger } from "pino";
import { type Clock, systemClock } from "./clock.js";
import type { Config } from "./config/index.js";
import { API_PREFIX } from "./http/openapi.plugin.js";
import { createTimeZoneCatalogue } from "./lib/time-zones.js";
import { createScopeResolver, type ScopeResolver } from "./modules/access/index.js";
import { type AlertsModule, createAlertsModule, LATE_DATA_MARGIN_MS } from "./modules/alerts/index.js";
import { type ContractModule, createContractModule } from "./modules/contract/index.js";
import { createUptimeModule, type UptimeModule } from "./modules/uptime/index.js";
import { type AnalyticsService, createAnalyticsService } from "./modules/analytics/index.js";
import { type AuditService, createAuditService, createAuditTrail } from "./modules/audit/index.js";
import {
  type AuthService,
  createAccessTokenSigner,
  createAuthService,
  type BrowserSessionService,
  createBrowserSessionService,
  createMailQueue,
  createOutboxTransport,
  createSessionSealer,
  createSmtpTransport,
  type MailQueue,
} from "./modules/auth/index.js";
import { createDataService, type DataService } from "./modules/data/index.js";
import {
  createHeartbeatService,
  createIngestService,
  type HeartbeatService,
  type IngestLimits,
  type IngestService,
} from "./modules/ingest/index.js";
import { createOtlpService, type OtlpService } from "./modules/otlp/index.js";
import { createInvitationsService, type InvitationsService } from "./modules/invitations/index.js";
import { createMembersService, type MembersService } from "./modules/members/index.js";
import { createHealthService, type HealthService } from "./modules/meta/index.js";
import { createRateLimiter, type RateLimiter } from "./modules/rate-limits/index.js";
import { createSavedViewsService, type SavedViewsService } from "./modules/saved-views/index.js";
import { createSloEvaluator, createSlosService, type SlosService } from "./modules/slos/index.js";
import { createPersonalTokensService, type PersonalTokensService } from "./modules/tokens/index.js";
import { createUsersService, type UsersService } from "./modules/users/index.js";
import { createMetrics, type Metrics, observeIngest } from "./metrics/index.js";
import { createResourceServices, type ResourceServices } from "./resources.js";
import { loadOrCreateSecret } from "./secrets.js";
import {
  API_LOGS,
  API_REQUESTS,
  API_SPANS,
  applyRetention,
  applyTableSettings,
  type EventsExecutor,
  eventsMigrations,
  loadEngineTimeZones,
  migrateEvents,
  observeExecutor,
  openEventsExecutor,
  type QueryClass,
  ROLLUPS,
  verifyEventsSchema,
} from "./stores/events/index.js";
import { createRateLimitsRepo, type MetadataStore, openMetadataStore } from "./stores/metadata/index.js";
import { createIngestIdempotencyRepo } from "./stores/metadata/repos/ingest-idempotency.repo.js";
import { createLeasesRepo } from "./stores/metadata/repos/leases.repo.js";
import { dropEmptySnapshot, runRollupBackfill } from "./stores/events/queries/rollups/backfill.js";
import { type RollupCoverage, storeCoverage } from "./stores/events/queries/rollups/coverage.js";
import { withMigrationLock } from "./stores/migration-lock.js";

export interface Deps {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly metadata: MetadataStore;
  readonly events: EventsExecutor;
  readonly jwtSecret: string;
  readonly rateLimiter: RateLimiter;
  readonly health: HealthService;
  /** Outgoing mail, delivered in the background; flush() waits for what is queued. */
  readonly mail: MailQueue;
  /** Sign-in, sessions and access-token verification (the bearer plugin's verifier). */
  readonly auth: AuthService;
  /** The dashboard's cookie sessions (the cookie half of `app.authenticate`). */
  readonly browserSessions: BrowserSessionService;
  /** Where the built dashboard is served from; undefined: the web package's dist/. */
  readonly dashboardDir: string | undefined;
  readonly users: UsersService;
  readonly personalTokens: PersonalTokensService;
  /** Projects, apps, API keys, environments, endpoints, and the directory ingest uses. */
  readonly resources: ResourceServices;
  /** Resolves the project or app a route acts on and checks the caller's role. */
  readonly access: ScopeResolver;
  /** A project's members, roles and ownership. */
  readonly members: MembersService;
  readonly invitations: InvitationsService;
  /** Reading a project's audit log (services write to it through the audit trail). */
  readonly audit: AuditService;
  /** Request and log ingest, with the buffered writers of the events tables. */
  readonly ingest: IngestService;
  /** Heartbeats of running app instances (POST /ingest/heartbeat). */
  readonly heartbeats: HeartbeatService;
  /** The OTLP/HTTP receivers' service: OpenTelemetry exports stored through ingest. */
  readonly otlp: OtlpService;
  /** Searching request and log records of a project. */
  readonly data: DataService;
  /** Aggregates over request records: summaries, timeseries, endpoints, consumers. */
  readonly analytics: AnalyticsService;
  /** Alert rules, channels, the evaluator (started by the server) and notification delivery. */
  readonly alerts: AlertsModule;
  /** The live API contract: inference (started by the server), versions, changes, declared documents. */
  readonly contract: ContractModule;
  /** SLOs: objectives, their computed status and budget (burn-rate alerts run with the alerts). */
  readonly slos: SlosService;
  /** Uptime checks: definitions, results, and their runner under a lease (started by the server). */
  readonly uptime: UptimeModule;
  /** Saved views: named page filters per user, optionally shared with the project. */
  readonly savedViews: SavedViewsService;
  /** This server's Prometheus registry and what records into it (served by GET /metrics). */
  readonly metrics: Metrics;
  /** Flushes pending writes and closes every store; safe to call twice. */
  close(): Promise<void>;
}

export interface DepsOptions {
  readonly logger: Logger;
  readonly clock?: Clock;
  /** Where stores live when the config alone cannot say (tests isolate themselves here). */
  readonly storage?: {
    readonly postgresSchema?: string;
    readonly chdbPath?: string;
  };
  /** Sees the SQL of every metadata query (tests count queries per request with it). */
  readonly onMetadataQuery?: (sql: string) => void;
  /** Serve the dashboard from here instead of the web package's dist/ (tests). */
  readonly dashboardDir?: string;
  /** Pauses between attempts of an alert notification (tests shorten them). */
  readonly alertRetryDelaysMs?: readonly number[];
  /** Wraps the opened events store (tests observe the statements and streams of a request). */
  readonly wrapEvents?: (events: EventsExecutor) => EventsExecutor;
}

/** Ingest's limits from the configuration: the batch cap and each kind's server-wide days. */
export function ingestLimitsOf(config: Config): IngestLimits {
  return {
    maxBatch: config.ingest.maxBatch,
    requestsRetentionDays: config.retention.requestsDays,
    logsRetentionDays: config.retention.logsDays,
    spansRetentionDays: config.retention.spansDays,
    rollupsRetentionDays: config.retention.rollupsDays,
  };
}

export async function createDeps(config: Config, options: DepsOptions): Promise<Deps> {
  const { logger } = options;
  const clock = options.clock ?? systemClock;
  const closers: Array<() => Promise<void>> = [];
  const metrics = createMetrics({ clock, processMetrics: config.metricsToken !== undefined });
  try {
    const jwtSecret = loadOrCreateSecret(config.jwtSecret, config.paths.jwtSecret);

    const metadata = openMetadataStore({
      databaseUrl: config.databaseUrl,
      sqlitePath: config.paths.sqlite,
      postgresSchema: options.storage?.postgresSchema,
      onQuery: options.onMetadataQuery,
    });
    closers.push(() => metadata.close());
    const appliedMetadata = await metadata.migrate();
    if (appliedMetadata.length > 0)
      logger.info({ migrations: appliedMetadata }, "metadata migrations applied");
    const auditTrail = createAuditTrail(clock);
    const resources = createResourceServices({
      db: metadata.db,
      clock,
      audit: auditTrail,
      logger,
      retention: config.retention,
    });
    closers.push(() => resources.close());

    const opened = await openEventsExecutor({
      clickhouseUrl: config.clickhouseUrl,
      chdbPath: options.storage?.chdbPath ?? config.paths.chdb,
      database: config.clickhouseDatabase,
      cluster: config.clickhouseCluster,
      maxExecutionTime: config.clickhouseMaxExecutionTime,
      insertBatching: config.ingestServerBatching,
      insertFormat: config.ingestInsertFormat,
      ddl: config.eventsDdl,
    });
    closers.push(() => opened.close());
    const events = options.wrapEvents?.(opened) ?? opened;
    if (config.eventsDdl === "off") await verifyEventsSchema(events, eventsMigrations);
    else {
      // One schema-changing job at a time across instances: a second waits, then finds nothing to do.
      await withMigrationLock(
        {
          leases: createLeasesRepo(metadata.db),
          clock,
          onWait: () => logger.info("another job is migrating the events store; waiting for its lock"),
        },
        () => changeEventsSchema(events, config, logger),
      );
    }
    // Each consumer sees the store through its own view, so query times carry who asked.
    const eventsFor = (queryClass: QueryClass) => observeExecutor(events, metrics.events, queryClass);
    const ingest = observeIngest(
      createIngestService({
        directory: resources.ingestDirectory,
        events: eventsFor("ingest"),
        idempotencyRepo: createIngestIdempotencyRepo(metadata.db),
        clock,
        logger,
        limits: ingestLimitsOf(config),
        writer: config.ingest,
        admission: config.ingest,
      }),
      metrics,
    );
    // Pushed after the events store, so closed before it: pending rows are stored first.
    closers.push(() => ingest.close());

    const rateLimiter = createRateLimiter(createRateLimitsRepo(metadata.db), clock);
    const mailTransport =
      config.smtpUrl === undefined
        ? createOutboxTransport(config.paths.outbox, config.mailFrom, logger)
        : createSmtpTransport(config.smtpUrl, config.mailFrom);
    const mail = createMailQueue(mailTransport, logger);
    // Pushed last, so closed first: queued mail goes out before the stores close.
    closers.push(() => mail.close());
    const auth = createAuthService({
      db: metadata.db,
      clock,
      rateLimiter,
      signer: createAccessTokenSigner(jwtSecret, clock),
      mail,
      publicUrl: config.publicUrl,
      logger,
    });
    const personalTokens = createPersonalTokensService({
      db: metadata.db,
      clock,
      audit: auditTrail,
      logger,
      requestsPerMinute: config.personalTokenRequestsPerMinute,
    });
    const apiBaseUrl = `${config.publicUrl}${API_PREFIX}`;
    const members = createMembersService({
      db: metadata.db,
      audit: auditTrail,
      apiBaseUrl,
      deleteProjectWithin: (trx, projectId) => resources.projects.deleteWithin(trx, projectId),
    });
    const invitations = createInvitationsService({
      db: metadata.db,
      clock,
      audit: auditTrail,
      rateLimiter,
      mail,
      publicUrl: config.publicUrl,
    });
    const users = createUsersService({
      db: metadata.db,
      clock,
      apiBaseUrl,
      logger,
      timeZones: createTimeZoneCatalogue(() => loadEngineTimeZones(events)),
      // Memberships end; projects only this user was in go, exactly as DELETE /projects/{slug}
      // would; shared projects the user was the last owner of pass to another member.
      // Tokens are revoked in the same transaction, so none outlives the account.
      onAccountDeleted: [
        (userId, trx) => members.endMembershipsOf(trx, userId),
        (userId, trx) => personalTokens.revokeAllWithin(trx, userId),
      ],
    });

    const { apps } = resources;
    // Reads go through the rollups where they are complete; rows stored before the rollups
    // existed are rolled up in the background meanwhile (docs/adr/0018-rollups.md).
    const rollups = storeCoverage(eventsFor("dashboard"));
    const data = createDataService({
      events: eventsFor("dashboard"),
      apps,
      clock,
      requestsRetentionDays: config.retention.requestsDays,
      rateLimiter,
      keptDays: (project, kind) => resources.retention.keptDays(project, kind),
      rollups,
    });
    const analytics = createAnalyticsService({
      events: eventsFor("dashboard"),
      apps,
      users,
      clock,
      requestsRetentionDays: config.retention.requestsDays,
      rollups,
      logsRetentionDays: config.retention.logsDays,
      analyticsDays: (project) => resources.retention.keptDays(project, "rollups"),
    });
    const slos = createSlosService({
      db: metadata.db,
      events: eventsFor("dashboard"),
      clock,
      audit: auditTrail,
    });
    const sloEvaluator = createSloEvaluator({
      db: metadata.db,
      events: eventsFor("alerts"),
      logger,
      publicUrl: config.publicUrl,
      latenessMs: config.ingest.flushIntervalMs + LATE_DATA_MARGIN_MS,
      minGapMs: (config.alerts.evalIntervalSeconds * 1000) / 2,
    });
    if (config.eventsDdl !== "off") {
      // A store migrated while empty has nothing to backfill: settled now, so reads never wait.
      await dropEmptySnapshot(events);
      closers.push(
        startRollupBackfill(events, rollups, logger, (work) =>
          withMigrationLock({ leases: createLeasesRepo(metadata.db), clock }, work),
        ),
      );
    }
    // Read once now, so the first dashboard call does not pay for it.
    await rollups.completeFrom();
    const alerts = createAlertsModule({
      db: metadata.db,
      events: eventsFor("alerts"),
      clock,
      logger,
      audit: auditTrail,
      mail: mailTransport,
      rateLimiter,
      publicUrl: config.publicUrl,
      evalIntervalSeconds: config.alerts.evalIntervalSeconds,
      allowPrivateTargets: config.alerts.allowPrivateTargets,
      sendTimeoutMs: config.alerts.sendTimeoutSeconds * 1000,
      deliveryBounds: config.alerts.delivery,
      ingestFlushIntervalMs: config.ingest.flushIntervalMs,
      ...(options.alertRetryDelaysMs === undefined ? {} : { retryDelaysMs: options.alertRetryDelaysMs }),
      observer: metrics.alerts,
      passes: [sloEvaluator],
    });
    // Pushed after the mail queue, so closed before it and the stores: a pass under way finishes
    // and the evaluator's lease is released for another instance at once.
    closers.push(() => alerts.close());
    const contract = createContractModule({
      db: metadata.db,
      events: eventsFor("alerts"),
      apps,
      clock,
      logger,
      intervalSeconds: config.contract.intervalSeconds,
      samplePerOperation: config.contract.samplePerOperation,
      unusedDays: config.contract.unusedDays,
      ingestFlushIntervalMs: config.ingest.flushIntervalMs,
      mail: mailTransport,
      publicUrl: config.publicUrl,
      allowPrivateTargets: config.alerts.allowPrivateTargets,
      sendTimeoutMs: config.alerts.sendTimeoutSeconds * 1000,
      ...(options.alertRetryDelaysMs === undefined ? {} : { retryDelaysMs: options.alertRetryDelaysMs }),
    });
    // Like the evaluator: a pass under way finishes and the lease is released before the stores close.
    closers.push(() => contract.close());
    const uptime = createUptimeModule({
      db: metadata.db,
      events: eventsFor("alerts"),
      clock,
      logger,
      publicUrl: config.publicUrl,
      allowPrivateTargets: config.alerts.allowPrivateTargets,
      kickDeliveries: () => alerts.deliveries.kick(),
    });
    closers.push(() => uptime.close());
    metrics.watch({
      pendingRows: () => {
        const stats = ingest.stats();
        return {
          [API_REQUESTS.name]: stats.requests,
          [API_LOGS.name]: stats.logs,
          [API_SPANS.name]: stats.spans,
        };
      },
      alertsBacklog: () => alerts.backlog(),
      onSourceError: (source, error) => logger.warn({ err: error, source }, "a metrics source failed"),
    });

    let closing: Promise<void> | undefined;
    return {
      config,
      logger,
      clock,
      metadata,
      events,
      jwtSecret,
      rateLimiter,
      health: createHealthService({ metadata, events }),
      mail,
      auth,
      browserSessions: createBrowserSessionService({
        auth,
        sealer: createSessionSealer(jwtSecret, clock),
        clock,
      }),
      dashboardDir: options.dashboardDir,
      users,
      personalTokens,
      resources,
      access: createScopeResolver(metadata.db),
      members,
      invitations,
      audit: createAuditService(metadata.db),
      ingest,
      heartbeats: createHeartbeatService({ db: metadata.db, directory: resources.ingestDirectory, clock }),
      otlp: createOtlpService({
        ingest,
        directory: resources.ingestDirectory,
        maxBatch: config.ingest.maxBatch,
      }),
      data,
      analytics,
      alerts,
      contract,
      slos,
      uptime,
      savedViews: createSavedViewsService({ db: metadata.db, clock }),
      metrics,
      close() {
        closing ??= closeAll(closers, logger);
        return closing;
      },
    };
  } catch (error) {
    await closeAll(closers, logger);
    throw error;
  }
}

async function closeAll(closers: Array<() => Promise<void>>, logger: Logger): Promise<void> {
  for (const close of closers.reverse()) {
    try {
      await close();
    } catch (error) {
      logger.error({ err: error }, "failed to close a store");
    }
  }
}

/** Runs the rollup backfill in the background (each day under `exclusive`); the returned closer
 *  stops it between days and waits, so the next start resumes where it stopped. */
function startRollupBackfill(
  events: EventsExecutor,
  coverage: RollupCoverage,
  logger: Logger,
  exclusive: <T>(work: () => Promise<T>) => Promise<T>,
): () => Promise<void> {
  let stopping = false;
  const job = runRollupBackfill(events, {
    coverage,
    exclusive,
    stopped: () => stopping,
    onDay: (progress) => logger.info(progress, "rollup backfill: day rolled up"),
  }).then(
    (result) => {
      if (result === "done") logger.debug("rollups complete");
    },
    (error: unknown) =>
      logger.error({ err: error }, "rollup backfill failed: older hours are read raw until the next start"),
  );
  return async () => {
    stopping = true;
    await job;
  };
}

/** Every DDL start-up may run on the events store (EVENTS_DDL=auto): pending migrations, then the
 *  configured TTLs and the driver's table settings. */
async function changeEventsSchema(events: EventsExecutor, config: Config, logger: Logger): Promise<void> {
  const appliedEvents = await migrateEvents(events);
  if (appliedEvents.length > 0) logger.info({ migrations: appliedEvents }, "events migrations applied");
  const retentionChanged = await applyRetention(events, {
    api_requests: config.retention.requestsDays,
    api_logs: config.retention.logsDays,
    api_spans: config.retention.spansDays,
    // Uptime results follow the requests, kept at least the 30 days their longest percentage reads.
    uptime_results: Math.max(config.retention.requestsDays, 30),
    ...Object.fromEntries(ROLLUPS.map((rollup) => [rollup.table.name, config.retention.rollupsDays])),
  });
  if (retentionChanged.length > 0) {
    // Metadata only: parts already stored keep the expiry they were written with (docs/adr/0023).
    logger.info(
      {
        tables: retentionChanged,
        materialize: retentionChanged.map(
          (table) => `ALTER TABLE ${events.database}.${table} MATERIALIZE TTL`,
        ),
      },
      "events retention changed for new and merged parts; to apply it to stored parts now, " +
        "run the listed statements (each rewrites the TTL of every part of its table)",
    );
  }
  const tuned = await applyTableSettings(events);
  if (tuned.length > 0)
    logger.info({ tables: tuned, settings: events.tableSettings }, "events table settings applied");
}
