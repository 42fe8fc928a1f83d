// The composition root's first half: opens every store and service once, from Config, and
// closes them in reverse order with one close(). Nothing here knows about HTTP.
import type { Logger } from "pino";
import { type Clock, systemClock } from "./clock.js";
import type { Config } from "./config/index.js";
import { createHealthService, type HealthService } from "./modules/meta/health.service.js";
import { createRateLimiter, type RateLimiter } from "./modules/rate-limits/rate-limits.service.js";
import { loadOrCreateSecret } from "./secrets.js";
import { type EventsExecutor, migrateEvents, openEventsExecutor } from "./stores/events/index.js";
import { createRateLimitsRepo, type MetadataStore, openMetadataStore } from "./stores/metadata/index.js";

export interface Deps {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly metadata: MetadataStore;
  readonly events: EventsExecutor;
  readonly jwtSecret: string;
  readonly rateLimiter: RateLimiter;
  readonly health: HealthService;
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
    });
    closers.push(() => metadata.close());
    const appliedMetadata = await metadata.migrate();
    if (appliedMetadata.length > 0)
      logger.info({ migrations: appliedMetadata }, "metadata migrations applied");

    const events = await openEventsExecutor({
      clickhouseUrl: config.clickhouseUrl,
      chdbPath: options.storage?.chdbPath ?? config.paths.chdb,
      database: config.clickhouseDatabase,
    });
    closers.push(() => events.close());
    const appliedEvents = await migrateEvents(events);
    if (appliedEvents.length > 0) logger.info({ migrations: appliedEvents }, "events migrations applied");

    let closing: Promise<void> | undefined;
    return {
      config,
      logger,
      clock,
      metadata,
      events,
      jwtSecret,
      rateLimiter: createRateLimiter(createRateLimitsRepo(metadata.db), clock),
      health: createHealthService({ metadata, events }),
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
