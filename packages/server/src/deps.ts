// The composition root's first half: opens every store and service once, from Config, and
// closes them in reverse order with one close(). Nothing here knows about HTTP.
import type { Logger } from "pino";
import { type Clock, systemClock } from "./clock.js";
import type { Config } from "./config/index.js";
import { API_PREFIX } from "./http/openapi.plugin.js";
import { type AuthService, createAuthService } from "./modules/auth/auth.service.js";
import {
  createMailQueue,
  createOutboxTransport,
  createSmtpTransport,
  type MailQueue,
} from "./modules/auth/mail/index.js";
import { createAccessTokenSigner } from "./modules/auth/tokens.js";
import { type AnalyticsService, createAnalyticsService } from "./modules/analytics/analytics.service.js";
import { createDataService, type DataService } from "./modules/data/data.service.js";
import { createIngestService, type IngestService } from "./modules/ingest/ingest.service.js";
import { createHealthService, type HealthService } from "./modules/meta/health.service.js";
import { createRateLimiter, type RateLimiter } from "./modules/rate-limits/rate-limits.service.js";
import { createUsersService, type UsersService } from "./modules/users/users.service.js";
import { createResourceServices, type ResourceServices } from "./modules/resources.js";
import { loadOrCreateSecret } from "./secrets.js";
import {
  applyRetention,
  type EventsExecutor,
  migrateEvents,
  openEventsExecutor,
} from "./stores/events/index.js";
import { createRateLimitsRepo, type MetadataStore, openMetadataStore } from "./stores/metadata/index.js";
import { createIngestIdempotencyRepo } from "./stores/metadata/repos/ingest-idempotency.repo.js";

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
  readonly users: UsersService;
  /** Projects, apps, API keys, environments, endpoints, and the directory ingest uses. */
  readonly resources: ResourceServices;
  /** Request and log ingest, with the buffered writers of the events tables. */
  readonly ingest: IngestService;
  /** Searching request and log records of a project. */
  readonly data: DataService;
  /** Aggregates over request records: summaries, timeseries, endpoints, consumers. */
  readonly analytics: AnalyticsService;
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
}

export async function createDeps(config: Config, options: DepsOptions): Promise<Deps> {
  const { logger } = options;
  const clock = options.clock ?? systemClock;
  const closers: Array<() => Promise<void>> = [];
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
    const resources = createResourceServices({ db: metadata.db, clock, logger });
    closers.push(() => resources.close());

    const events = await openEventsExecutor({
      clickhouseUrl: config.clickhouseUrl,
      chdbPath: options.storage?.chdbPath ?? config.paths.chdb,
      database: config.clickhouseDatabase,
    });
    closers.push(() => events.close());
    const appliedEvents = await migrateEvents(events);
    if (appliedEvents.length > 0) logger.info({ migrations: appliedEvents }, "events migrations applied");
    const retentionChanged = await applyRetention(events, {
      api_requests: config.retention.requestsDays,
      api_logs: config.retention.logsDays,
    });
    if (retentionChanged.length > 0) logger.info({ tables: retentionChanged }, "events retention changed");
    const ingest = createIngestService({
      directory: resources.ingestDirectory,
      events,
      idempotencyRepo: createIngestIdempotencyRepo(metadata.db),
      clock,
      logger,
      limits: {
        maxBatch: config.ingest.maxBatch,
        requestsRetentionDays: config.retention.requestsDays,
        logsRetentionDays: config.retention.logsDays,
      },
      writer: config.ingest,
    });
    // Pushed after the events store, so closed before it: pending rows are stored first.
    closers.push(() => ingest.close());

    const rateLimiter = createRateLimiter(createRateLimitsRepo(metadata.db), clock);
    const mail = createMailQueue(
      config.smtpUrl === undefined
        ? createOutboxTransport(config.paths.outbox, config.mailFrom, logger)
        : createSmtpTransport(config.smtpUrl, config.mailFrom),
      logger,
    );
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
    const users = createUsersService({
      db: metadata.db,
      clock,
      apiBaseUrl: `${config.publicUrl}${API_PREFIX}`,
      logger,
      // Projects the user owns go with the account, exactly as DELETE /projects/{slug} would.
      onAccountDeleted: [(userId, trx) => resources.projects.deleteProjectsOwnedBy(trx, userId)],
    });

    const { projects, apps } = resources;
    const data = createDataService({ events, projects, apps });
    const analytics = createAnalyticsService({ events, projects, apps, users, clock });

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
      users,
      resources,
      ingest,
      data,
      analytics,
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
