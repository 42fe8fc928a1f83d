// Once per `unit` run: the ClickHouse server every events-store suite runs on beside chDB. A
// server named by TEST_CLICKHOUSE_URL is used as it is; otherwise one is launched from chDB's
// library (clickhouse-server.ts) and stopped at the end. SIGHTLINE_TEST_NO_CLICKHOUSE=1 runs chDB
// only, for quick local runs; CI refuses it, and a launcher failure fails the run.
import type { TestProject } from "vitest/node";
import { type ClickhouseServer, startClickhouseServer } from "./clickhouse-server.js";

/** Provides `clickhouseUrl` (declared in events.ts, which reads it). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_CLICKHOUSE_URL;
  if (given !== undefined && given !== "") {
    project.provide("clickhouseUrl", given);
    return async () => undefined;
  }
  if (process.env.SIGHTLINE_TEST_NO_CLICKHOUSE === "1") {
    if (process.env.CI === "true") {
      throw new Error(
        "CI=true refuses SIGHTLINE_TEST_NO_CLICKHOUSE: the ClickHouse server suites must run in CI",
      );
    }
    process.stdout.write("\nSIGHTLINE_TEST_NO_CLICKHOUSE=1: events-store suites run on chDB only\n\n");
    project.provide("clickhouseUrl", "");
    return async () => undefined;
  }
  let server: ClickhouseServer;
  try {
    server = await startClickhouseServer();
  } catch (error) {
    throw new Error(
      "Could not start the test ClickHouse server (set TEST_CLICKHOUSE_URL to use one of your own, " +
        `or SIGHTLINE_TEST_NO_CLICKHOUSE=1 to run on chDB only outside CI): ${String(error)}`,
      { cause: error },
    );
  }
  process.stdout.write(
    `\nevents-store suites also run on ClickHouse ${server.version} (127.0.0.1:${server.httpPort})\n\n`,
  );
  project.provide("clickhouseUrl", server.url);
  return () => server.stop();
}
