#!/usr/bin/env node
// The `sightline` command: `start` serves the API, `migrate` brings both stores' schemas up
// to date and exits. Configuration comes from the environment (see the README table).
import { type Config, ConfigError, loadConfig } from "./config/index.js";
import { createDeps } from "./deps.js";
import { createLogger } from "./logger.js";
import { startServer } from "./main.js";
import { SERVER_VERSION } from "./version.js";

const SHUTDOWN_DEADLINE_MS = 30_000;

const USAGE = `Usage: sightline <command>

Commands:
  start     Serve the Sightline API and dashboard (default)
  migrate   Apply pending migrations to the metadata and events stores, then exit
  version   Print the version
  help      Show this text

Configuration is read from environment variables; see the README.`;

async function main(argv: readonly string[]): Promise<number> {
  const command = argv[0] ?? "start";
  switch (command) {
    case "start":
      return start(readConfig());
    case "migrate":
      return migrate(readConfig());
    case "version":
    case "--version":
      process.stdout.write(`${SERVER_VERSION}\n`);
      return 0;
    case "help":
    case "--help":
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      process.stderr.write(`Unknown command "${command}".\n\n${USAGE}\n`);
      return 2;
  }
}

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`sightline: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function start(config: Config): Promise<number> {
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, logger);
  const local = server.address.replace("://0.0.0.0:", "://localhost:").replace("://[::]:", "://localhost:");
  process.stdout.write(
    [
      "",
      `  Sightline ${SERVER_VERSION} is running`,
      `  API         ${local}/api/v1`,
      `  API docs    ${local}/api/v1/docs`,
      // Where e-mailed sign-in links point: the browser's cookie belongs to that host.
      `  Dashboard   ${config.publicUrl}/`,
      ...(config.publicUrl.startsWith(local) ? [] : [`  Public URL  ${config.publicUrl}`]),
      `  Data        ${describeStorage(config)}`,
      "",
      "",
    ].join("\n"),
  );

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting without waiting");
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, "shutting down: finishing in-flight requests and flushing writes");
      const deadline = setTimeout(() => {
        logger.error("shutdown took too long; exiting");
        process.exit(1);
      }, SHUTDOWN_DEADLINE_MS);
      deadline.unref();
      server.close().then(
        () => resolve(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          resolve(1);
        },
      );
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}

async function migrate(config: Config): Promise<number> {
  const logger = createLogger(config.logLevel);
  // createDeps runs both migration chains and logs what it applied; the migrator is the one job
  // that changes schemas, whatever EVENTS_DDL says for serving instances.
  const deps = await createDeps({ ...config, eventsDdl: "auto" }, { logger });
  await deps.close();
  process.stdout.write(`Migrations are up to date (${describeStorage(config)}).\n`);
  return 0;
}

function describeStorage(config: Config): string {
  const metadata =
    config.databaseUrl === undefined ? `SQLite ${config.paths.sqlite}` : "PostgreSQL (DATABASE_URL)";
  const events =
    config.clickhouseUrl === undefined ? `chDB ${config.paths.chdb}` : "ClickHouse server (CLICKHOUSE_URL)";
  return `metadata: ${metadata}; events: ${events}`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`sightline: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof Error && error.cause !== undefined) {
      process.stderr.write(`  cause: ${String((error.cause as Error).message ?? error.cause)}\n`);
    }
    process.exit(1);
  },
);
