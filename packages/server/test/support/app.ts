// Builds the real app on real stores for a test: a temporary DATA_DIR (SQLite file, JWT
// secret), this process's chDB directory with a database of its own, and, for the
// PostgreSQL backend, a schema of its own. close() tears all of it down.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DestinationStream } from "pino";
import { buildApp } from "../../src/app.js";
import type { Clock } from "../../src/clock.js";
import { type Config, loadConfig } from "../../src/config/index.js";
import { createDeps, type Deps, type DepsOptions } from "../../src/deps.js";
import type { App } from "../../src/http/types.js";
import { createLogger } from "../../src/logger.js";
import { testChdbPath, uniqueDatabaseName } from "./events.js";
import {
  createPostgresSchema,
  createPostgresSchemaHandle,
  type MetadataBackend,
  type PostgresSchema,
} from "./metadata.js";

export interface TestContext {
  readonly app: App;
  readonly deps: Deps;
  readonly config: Config;
  readonly dataDir: string;
  /** What a restarted context needs to find the same stores again. */
  readonly storage: { dataDir: string; postgresSchema?: string; eventsDatabase: string };
  /** Closes app and stores, keeping their data (restart scenarios). Idempotent. */
  stop(): Promise<void>;
  /** Stops, then drops the events database and test schema and removes DATA_DIR. */
  close(): Promise<void>;
}

export interface TestContextOptions {
  readonly metadata?: MetadataBackend;
  readonly env?: Readonly<Record<string, string>>;
  readonly clock?: Clock;
  /** Reopen the stores of an earlier context (restart scenarios). */
  readonly reuse?: TestContext["storage"];
  /** Registers extra routes before the app is readied (e.g. to probe cross-cutting plugins). */
  readonly extend?: (app: App) => void | Promise<void>;
  /** Sees the SQL of every metadata query. */
  readonly onMetadataQuery?: (sql: string) => void;
  /** Wraps the events store (e.g. a delegatingExecutor counting what a request reads). */
  readonly wrapEvents?: DepsOptions["wrapEvents"];
  /** Where the server's log lines go (at LOG_LEVEL, default silent); standard output if unset. */
  readonly logDestination?: DestinationStream;
  /** Serve the dashboard from this directory instead of the web package's build. */
  readonly dashboardDir?: string;
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const dataDir = options.reuse?.dataDir ?? (await mkdtemp(join(tmpdir(), "sightline-data-")));
  const eventsDatabase = options.reuse?.eventsDatabase ?? uniqueDatabaseName("app");
  const backend = options.metadata ?? { name: "sqlite" };
  let pgSchema: PostgresSchema | undefined;
  if (backend.name === "postgres" && options.reuse?.postgresSchema === undefined) {
    pgSchema = await createPostgresSchema(backend.databaseUrl as string);
  }
  const postgresSchema = options.reuse?.postgresSchema ?? pgSchema?.schema;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    CLICKHOUSE_DATABASE: eventsDatabase,
    ...(backend.name === "postgres" ? { DATABASE_URL: backend.databaseUrl } : {}),
    ...options.env,
  });
  const deps = await createDeps(config, {
    logger: createLogger(config.logLevel, options.logDestination),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.onMetadataQuery === undefined ? {} : { onMetadataQuery: options.onMetadataQuery }),
    ...(options.dashboardDir === undefined ? {} : { dashboardDir: options.dashboardDir }),
    ...(options.wrapEvents === undefined ? {} : { wrapEvents: options.wrapEvents }),
    storage: {
      chdbPath: testChdbPath(),
      ...(postgresSchema === undefined ? {} : { postgresSchema }),
    },
  });
  const app = await buildApp(deps);
  await options.extend?.(app);
  await app.ready();

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= app.close().then(() => deps.close());
    return stopped;
  };
  return {
    app,
    deps,
    config,
    dataDir,
    storage: { dataDir, eventsDatabase, ...(postgresSchema === undefined ? {} : { postgresSchema }) },
    stop,
    async close() {
      if (stopped === undefined) {
        // Best effort: a test may have closed the events store on purpose.
        await deps.events.command(`DROP DATABASE IF EXISTS ${eventsDatabase}`).catch(() => undefined);
      }
      await stop();
      await pgSchema?.drop();
      if (backend.name === "postgres" && pgSchema === undefined && postgresSchema !== undefined) {
        await createPostgresSchemaHandle(backend.databaseUrl as string, postgresSchema).drop();
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
