// `sightline start`, `migrate` and `version`: the server side of the binary. Configuration comes
// from the environment (see the README table). The server's modules are imported only when one of
// these runs, so client commands start without loading the stores.
import type { Command } from "commander";
import { type Config, ConfigError, loadConfig } from "../../config/index.js";
import { SERVER_VERSION } from "../../version.js";
import { CliError, EXIT } from "../exit-codes.js";
import type { CliContext } from "../program.js";

const SHUTDOWN_DEADLINE_MS = 30_000;

export function registerServerCommands(program: Command, context: CliContext): void {
  program
    .command("start")
    .description("serve the Sightline API and dashboard (what `sightline` alone does)")
    .action(async () => start(readConfig(), context));

  program
    .command("migrate")
    .description("apply pending migrations to the metadata and events stores, then exit")
    .action(async () => migrate(readConfig(), context));

  program
    .command("version")
    .description("print the version")
    .action(() => {
      context.streams.stdout.write(`${SERVER_VERSION}\n`);
    });
}

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(EXIT.usage, error.message);
    throw error;
  }
}

async function start(config: Config, context: CliContext): Promise<void> {
  const { createLogger } = await import("../../logger.js");
  const { startServer } = await import("../../main.js");
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, logger);
  const local = server.address.replace("://0.0.0.0:", "://localhost:").replace("://[::]:", "://localhost:");
  context.streams.stdout.write(
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

  await new Promise<void>((resolve, reject) => {
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
      server.close().then(resolve, (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        reject(new CliError(EXIT.usage, "shutdown failed"));
      });
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}

async function migrate(config: Config, context: CliContext): Promise<void> {
  const { createLogger } = await import("../../logger.js");
  const { createDeps } = await import("../../deps.js");
  const logger = createLogger(config.logLevel);
  // createDeps runs both migration chains and logs what it applied; the migrator is the one job
  // that changes schemas, whatever EVENTS_DDL says for serving instances.
  const deps = await createDeps({ ...config, eventsDdl: "auto" }, { logger });
  await deps.close();
  context.streams.stdout.write(`Migrations are up to date (${describeStorage(config)}).\n`);
}

function describeStorage(config: Config): string {
  const metadata =
    config.databaseUrl === undefined ? `SQLite ${config.paths.sqlite}` : "PostgreSQL (DATABASE_URL)";
  const events =
    config.clickhouseUrl === undefined ? `chDB ${config.paths.chdb}` : "ClickHouse server (CLICKHOUSE_URL)";
  return `metadata: ${metadata}; events: ${events}`;
}
