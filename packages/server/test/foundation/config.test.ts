// Configuration parsing: defaults, derived paths, and start-up failures that name the variable.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError, knobs, loadConfig } from "../../src/config/index.js";

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env, "/srv");
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const config = loadConfig({}, "/srv");
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      dataDir: "/srv/data",
      publicUrl: "http://localhost:8080",
      databaseUrl: undefined,
      clickhouseUrl: undefined,
      clickhouseDatabase: "sightline",
      smtpUrl: undefined,
      jwtSecret: undefined,
      trustProxy: false,
      logLevel: "info",
    });
    expect(config.paths).toEqual({
      sqlite: "/srv/data/sightline.sqlite",
      chdb: "/srv/data/events",
      jwtSecret: "/srv/data/jwt-secret",
      outbox: "/srv/data/outbox",
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it("derives PUBLIC_URL from PORT and strips a trailing slash", () => {
    expect(loadConfig({ PORT: "9000" }).publicUrl).toBe("http://localhost:9000");
    expect(loadConfig({ PUBLIC_URL: "https://obs.example.com/" }).publicUrl).toBe("https://obs.example.com");
  });

  it("allows PUBLIC_URL's origin and those of PUBLIC_URL_ALIASES, nothing else", () => {
    expect(loadConfig({ PUBLIC_URL: "https://obs.example.com/app/" }).publicOrigins).toEqual([
      "https://obs.example.com",
    ]);
    const aliased = loadConfig({
      PUBLIC_URL: "http://localhost:8080",
      PUBLIC_URL_ALIASES: " http://127.0.0.1:8080/ , http://localhost:5173,http://localhost:8080",
    });
    expect(aliased.publicOrigins).toEqual([
      "http://localhost:8080",
      "http://127.0.0.1:8080",
      "http://localhost:5173",
    ]);
  });

  it("reads every knob", () => {
    const config = loadConfig(
      {
        PORT: "9001",
        HOST: "0.0.0.0",
        DATA_DIR: "/var/lib/sightline",
        DATABASE_URL: "postgres://u:p@db:5432/sl",
        CLICKHOUSE_URL: "https://u:p@ch:8443",
        CLICKHOUSE_DATABASE: "obs_prod",
        SMTP_URL: "smtps://u:p@mail:465",
        MAIL_FROM: "Ops <ops@example.com>",
        JWT_SECRET: "x".repeat(40),
        TRUST_PROXY: "10.0.0.0/8, 127.0.0.1",
        LOG_LEVEL: "DEBUG",
      },
      "/srv",
    );
    expect(config).toMatchObject({
      port: 9001,
      host: "0.0.0.0",
      dataDir: "/var/lib/sightline",
      databaseUrl: "postgres://u:p@db:5432/sl",
      clickhouseUrl: "https://u:p@ch:8443",
      clickhouseDatabase: "obs_prod",
      smtpUrl: "smtps://u:p@mail:465",
      mailFrom: "Ops <ops@example.com>",
      trustProxy: "10.0.0.0/8,127.0.0.1",
      logLevel: "debug",
    });
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["PUBLIC_URL", "localhost:8080"],
    ["PUBLIC_URL_ALIASES", "http://ok.example,ftp://files.example"],
    ["DATABASE_URL", "mysql://db/sl"],
    ["CLICKHOUSE_URL", "tcp://ch:9000"],
    ["CLICKHOUSE_DATABASE", "drop table;"],
    ["SMTP_URL", "http://mail"],
    ["MAIL_FROM", "nobody"],
    ["JWT_SECRET", "short"],
    ["TRUST_PROXY", "maybe"],
    ["LOG_LEVEL", "loud"],
    ["REQUESTS_RETENTION_DAYS", "36500"],
    ["LOGS_RETENTION_DAYS", "0"],
    ["INGEST_MAX_BATCH", "lots"],
    ["METRICS_TOKEN", "too-short"],
    ["METRICS_TOKEN", "sixteen chars but spaced"],
  ])("stops on an invalid %s (%s) naming the variable", (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
  });

  it("reports every invalid variable at once", () => {
    expect(problemsOf({ PORT: "x", LOG_LEVEL: "loud" }).map((p) => p.split(":")[0])).toEqual([
      "PORT",
      "LOG_LEVEL",
    ]);
  });

  it("reads CLICKHOUSE_CLUSTER only with a ClickHouse server, in ON CLUSTER mode unless told per-node", () => {
    const url = "http://u:p@ch.internal:8123";
    expect(loadConfig({}).clickhouseCluster).toBeUndefined();
    expect(loadConfig({ CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER: "fleet" }).clickhouseCluster).toEqual({
      name: "fleet",
      ddl: "on-cluster",
    });
    expect(
      loadConfig({ CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER: "fleet", CLICKHOUSE_CLUSTER_DDL: "per-node" })
        .clickhouseCluster,
    ).toEqual({ name: "fleet", ddl: "per-node" });
    expect(problemsOf({ CLICKHOUSE_CLUSTER: "fleet" })).toEqual([
      "CLICKHOUSE_CLUSTER: needs CLICKHOUSE_URL: embedded chDB is one node",
    ]);
    expect(problemsOf({ CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER: "fleet; DROP" })).toEqual([
      "CLICKHOUSE_CLUSTER: must be letters, digits and underscores, not starting with a digit",
    ]);
    expect(problemsOf({ CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER_DDL: "per-node" })).toEqual([
      "CLICKHOUSE_CLUSTER_DDL: applies only with CLICKHOUSE_CLUSTER",
    ]);
    expect(
      problemsOf({ CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER: "fleet", CLICKHOUSE_CLUSTER_DDL: "all" }),
    ).toEqual(["CLICKHOUSE_CLUSTER_DDL: must be on-cluster or per-node"]);
  });

  it("reads EVENTS_DDL as auto (default) or off and refuses anything else", () => {
    expect(loadConfig({}).eventsDdl).toBe("auto");
    expect(loadConfig({ EVENTS_DDL: "OFF" }).eventsDdl).toBe("off");
    expect(problemsOf({ EVENTS_DDL: "never" })).toEqual(["EVENTS_DDL: must be auto or off"]);
  });

  it.each([
    ["true", true],
    ["off", false],
    ["2", 2],
  ] as const)("parses TRUST_PROXY=%s", (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it("reads the alert knobs and refuses bad values", () => {
    expect(loadConfig({}).alerts).toEqual({
      evalIntervalSeconds: 60,
      allowPrivateTargets: false,
      sendTimeoutSeconds: 10,
      delivery: { overall: 16, perProject: 4, perChannel: 2 },
    });
    expect(
      loadConfig({
        ALERTS_EVAL_INTERVAL_SECONDS: "5",
        ALERTS_ALLOW_PRIVATE_TARGETS: "true",
        ALERTS_SEND_TIMEOUT_SECONDS: "3",
        ALERTS_DELIVERY_CONCURRENCY: "8",
        ALERTS_DELIVERY_PER_PROJECT: "2",
        ALERTS_DELIVERY_PER_CHANNEL: "1",
      }).alerts,
    ).toEqual({
      evalIntervalSeconds: 5,
      allowPrivateTargets: true,
      sendTimeoutSeconds: 3,
      delivery: { overall: 8, perProject: 2, perChannel: 1 },
    });
    expect(() =>
      loadConfig({ ALERTS_EVAL_INTERVAL_SECONDS: "0", ALERTS_ALLOW_PRIVATE_TARGETS: "maybe" }),
    ).toThrow(/ALERTS_EVAL_INTERVAL_SECONDS[\s\S]*ALERTS_ALLOW_PRIVATE_TARGETS: must be true or false/);
    expect(() => loadConfig({ ALERTS_SEND_TIMEOUT_SECONDS: "0", ALERTS_DELIVERY_CONCURRENCY: "0" })).toThrow(
      /ALERTS_SEND_TIMEOUT_SECONDS[\s\S]*ALERTS_DELIVERY_CONCURRENCY/,
    );
  });

  it("reads the per-project and per-key ingest limits and refuses bad values", () => {
    expect(loadConfig({}).ingest).toMatchObject({
      projectRate: 200_000,
      projectBurst: 200_000,
      keyRate: 200_000,
      keyBurst: 200_000,
      projectPendingShare: 0.5,
    });
    expect(
      loadConfig({
        INGEST_PROJECT_RATE: "5000",
        INGEST_PROJECT_BURST: "20000",
        INGEST_KEY_RATE: "1000",
        INGEST_KEY_BURST: "3000",
        INGEST_PROJECT_PENDING_SHARE: "25",
      }).ingest,
    ).toMatchObject({
      projectRate: 5000,
      projectBurst: 20_000,
      keyRate: 1000,
      keyBurst: 3000,
      projectPendingShare: 0.25,
    });
    expect(() =>
      loadConfig({ INGEST_PROJECT_RATE: "0", INGEST_KEY_BURST: "many", INGEST_PROJECT_PENDING_SHARE: "101" }),
    ).toThrow(/INGEST_PROJECT_PENDING_SHARE[\s\S]*INGEST_PROJECT_RATE[\s\S]*INGEST_KEY_BURST/);
  });

  it("takes the server path's group-commit window on a ClickHouse server only", () => {
    expect(loadConfig({}).ingest.flushIntervalMs).toBe(50);
    expect(loadConfig({ INGEST_SERVER_WINDOW_MS: "1000" }).ingest.flushIntervalMs).toBe(50);
    const server = { CLICKHOUSE_URL: "http://127.0.0.1:8123" };
    expect(loadConfig(server).ingest.flushIntervalMs).toBe(50);
    expect(loadConfig({ ...server, INGEST_FLUSH_INTERVAL_MS: "80" }).ingest.flushIntervalMs).toBe(80);
    expect(loadConfig({ ...server, INGEST_SERVER_WINDOW_MS: "1000" }).ingest.flushIntervalMs).toBe(1000);
    expect(() => loadConfig({ INGEST_SERVER_WINDOW_MS: "0" })).toThrow(/INGEST_SERVER_WINDOW_MS/);
  });

  it("documents every knob in the README configuration table", () => {
    const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");
    for (const knob of knobs) {
      expect(readme, `README lacks ${knob.name}`).toMatch(new RegExp(`^\\|\\s*\`${knob.name}\`\\s*\\|`, "m"));
    }
  });
});
