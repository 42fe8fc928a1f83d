// The one place that reads the environment: every knob declared with its default and a
// one-line why, parsed once into a typed, frozen Config. Invalid values stop start-up.
import { isAbsolute, resolve } from "node:path";

export type TrustProxy = boolean | number | string;
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly publicUrl: string;
  /**
   * Origins a browser may send state-changing requests from: PUBLIC_URL's, then those of
   * PUBLIC_URL_ALIASES. The CSRF guard accepts these and nothing else.
   */
  readonly publicOrigins: readonly string[];
  readonly databaseUrl: string | undefined;
  readonly clickhouseUrl: string | undefined;
  readonly clickhouseDatabase: string;
  /** CLICKHOUSE_CLUSTER: the events tables span this cluster (docs/adr/0024); undefined: one node. */
  readonly clickhouseCluster: { readonly name: string; readonly ddl: "on-cluster" | "per-node" } | undefined;
  /** "off": this instance never changes the events schema and starts only when it is current. */
  readonly eventsDdl: "auto" | "off";
  /** Seconds a ClickHouse server read may run, per class of caller (0: no limit). */
  readonly clickhouseMaxExecutionTime: {
    readonly dashboard: number;
    readonly alerts: number;
    readonly export: number;
  };
  /** How a ClickHouse server batches inserts: "async" (server-side async inserts, acknowledged once
   *  flushed) or "client" (each group commit is its own part). chDB ignores it. */
  readonly ingestServerBatching: "async" | "client";
  /** INGEST_INSERT_FORMAT: the body format of ingest's inserts on either engine. */
  readonly ingestInsertFormat: "RowBinary" | "JSONCompactEachRow";
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly jwtSecret: string | undefined;
  readonly trustProxy: TrustProxy;
  readonly logLevel: LogLevel;
  readonly ingest: {
    /** Records per ingest call; more is refused with 413. */
    readonly maxBatch: number;
    /** Bytes of an ingest body after decompression; more is refused with 413. */
    readonly maxBodyBytes: number;
    /** Rows per events insert that start a flush early. */
    readonly flushRows: number;
    /** How long the first waiting batch waits for company before its insert starts: on a
     *  ClickHouse server INGEST_SERVER_WINDOW_MS, on chDB INGEST_FLUSH_INTERVAL_MS. */
    readonly flushIntervalMs: number;
    /** Rows waiting or being inserted (per table) beyond which batches get 503. */
    readonly maxPendingRows: number;
    /** Fraction (0–1] of maxPendingRows (and bytes) one project may hold; beyond it 429. */
    readonly projectPendingShare: number;
    /** Records per second (average) and at once (burst) per project and per API key, enforced
     *  by each instance on what it receives; beyond them 429. */
    readonly projectRate: number;
    readonly projectBurst: number;
    readonly keyRate: number;
    readonly keyBurst: number;
  };
  /** Days events are kept (the tables' TTL); for raw records the most a project may set. */
  readonly retention: {
    readonly requestsDays: number;
    readonly logsDays: number;
    readonly spansDays: number;
    readonly rollupsDays: number;
  };
  readonly alerts: {
    /** Seconds between evaluations of the alert rules (one instance evaluates, by lease). */
    readonly evalIntervalSeconds: number;
    /** Whether webhook and Slack targets may be loopback, link-local or private addresses. */
    readonly allowPrivateTargets: boolean;
    /** Absolute deadline of one webhook or Slack send, answer included. */
    readonly sendTimeoutSeconds: number;
    /** Notification sends under way at once per instance: overall, per project, per channel. */
    readonly delivery: {
      readonly overall: number;
      readonly perProject: number;
      readonly perChannel: number;
    };
  };
  readonly contract: {
    /** Seconds between contract inference passes (one instance runs them, by lease). */
    readonly intervalSeconds: number;
    /** Calls with payloads sampled per operation and pass. */
    readonly samplePerOperation: number;
    /** Days unseen after which operations, fields and values leave the contract; also the
     *  look-back of affected consumers and of the declared-vs-observed report. */
    readonly unusedDays: number;
  };
  /** Bearer token of GET /metrics (Prometheus); undefined: the route answers 404. */
  readonly metricsToken: string | undefined;
  /** Requests per minute one personal access token may make, per server instance (429 beyond). */
  readonly personalTokenRequestsPerMinute: number;
  /** Files and folders under dataDir; derived, not configurable one by one. */
  readonly paths: {
    readonly sqlite: string;
    readonly chdb: string;
    readonly jwtSecret: string;
    readonly outbox: string;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** A documented knob. `docs/configuration` and the README table are checked against this list. */
export interface Knob {
  readonly name: string;
  readonly default: string;
  readonly description: string;
}

export const knobs: readonly Knob[] = [
  { name: "PORT", default: "8080", description: "TCP port the HTTP server listens on." },
  {
    name: "HOST",
    default: "127.0.0.1",
    description: "Interface to bind; `0.0.0.0` to accept connections from other machines.",
  },
  {
    name: "DATA_DIR",
    default: "./data",
    description: "Where the embedded stores, the generated JWT secret and the dev outbox live.",
  },
  {
    name: "PUBLIC_URL",
    default: "http://localhost:<PORT>",
    description: "The address users reach Sightline at; used in e-mailed sign-in links.",
  },
  {
    name: "PUBLIC_URL_ALIASES",
    default: "(unset)",
    description:
      "Comma-separated other URLs the dashboard is served at (e.g. `http://127.0.0.1:8080`); their origins pass the CSRF check too.",
  },
  {
    name: "DATABASE_URL",
    default: "(unset: SQLite file in DATA_DIR)",
    description: "`postgres://user:pass@host:5432/db` to keep metadata in PostgreSQL.",
  },
  {
    name: "CLICKHOUSE_URL",
    default: "(unset: embedded chDB in DATA_DIR)",
    description: "`http(s)://user:pass@host:8123` to keep events on a ClickHouse server.",
  },
  {
    name: "CLICKHOUSE_DATABASE",
    default: "sightline",
    description: "Database holding the events tables (embedded or server).",
  },
  {
    name: "CLICKHOUSE_CLUSTER",
    default: "(unset: one node)",
    description:
      'A cluster of the servers\' `<remote_servers>`: the events tables become per-node `Replicated*` tables (`<name>_local`) behind `Distributed` tables, every DDL runs `ON CLUSTER` (README, "Topologies"). Needs `CLICKHOUSE_URL` and a new, empty events database.',
  },
  {
    name: "CLICKHOUSE_CLUSTER_DDL",
    default: "on-cluster",
    description:
      "With `CLICKHOUSE_CLUSTER`: `per-node` for a sharded cluster without Keeper: plain `MergeTree` local tables, no `ON CLUSTER`; `sightline migrate` must then run once against each node's URL.",
  },
  {
    name: "EVENTS_DDL",
    default: "auto",
    description:
      "`off`: `start` never creates or alters anything in the events store (no database, tables, table settings or TTLs) and refuses to start until `sightline migrate` has applied every migration; `auto`: `start` migrates too.",
  },
  {
    name: "INGEST_SERVER_BATCHING",
    default: "async",
    description:
      "On a ClickHouse server: `async` sends inserts with `async_insert=1, wait_for_async_insert=1` (the server batches every instance's inserts into few parts and answers once they are stored); `client`: each instance's group commit is one part. Ignored by embedded chDB.",
  },
  {
    name: "INGEST_INSERT_FORMAT",
    default: "binary",
    description:
      "The body of ingest's inserts: `binary` (RowBinary, built straight from the records: about a fifth less CPU per record in the server and the engine; on embedded chDB it passes through a file in /dev/shm, or the temporary directory without one) or `json` (JSONCompactEachRow text, the format before 2026-11-26).",
  },
  {
    name: "CLICKHOUSE_DASHBOARD_TIMEOUT",
    default: "30",
    description:
      "Seconds a dashboard read may run on a ClickHouse server before it is stopped and answered 503 (0: no limit).",
  },
  {
    name: "CLICKHOUSE_ALERTS_TIMEOUT",
    default: "60",
    description: "Seconds an alert evaluation's read may run on a ClickHouse server (0: no limit).",
  },
  {
    name: "CLICKHOUSE_EXPORT_TIMEOUT",
    default: "0",
    description: "Seconds an export may run on a ClickHouse server (0: no limit).",
  },
  {
    name: "SMTP_URL",
    default: "(unset: dev mailer)",
    description:
      "`smtp://user:pass@host:587` or `smtps://…` for real mail; unset logs links and writes .eml files.",
  },
  { name: "MAIL_FROM", default: "Sightline <no-reply@localhost>", description: "Sender of e-mails." },
  {
    name: "JWT_SECRET",
    default: "(unset: generated into DATA_DIR/jwt-secret, mode 0600)",
    description: "At least 32 characters. Set the same value on every instance when running several.",
  },
  {
    name: "TRUST_PROXY",
    default: "false",
    description:
      "`true`, a hop count, or comma-separated proxy addresses/CIDRs whose X-Forwarded-For is believed.",
  },
  {
    name: "LOG_LEVEL",
    default: "info",
    description: "One of fatal, error, warn, info, debug, trace, silent.",
  },
  {
    name: "INGEST_MAX_BATCH",
    default: "1000",
    description: "Records per ingest call; a larger batch is refused whole with 413.",
  },
  {
    name: "INGEST_MAX_BODY",
    default: "10485760 (10 MiB)",
    description: "Bytes of an ingest body after gzip/deflate decoding; more is refused with 413.",
  },
  {
    name: "INGEST_FLUSH_ROWS",
    default: "10000",
    description:
      "Rows that start an events insert at once; larger inserts cost less per row but take longer.",
  },
  {
    name: "INGEST_FLUSH_INTERVAL_MS",
    default: "50",
    description: "Longest wait of a batch for others to share its insert; bounds the latency it adds.",
  },
  {
    name: "INGEST_SERVER_WINDOW_MS",
    default: "(unset: INGEST_FLUSH_INTERVAL_MS)",
    description:
      "On a ClickHouse server (CLICKHOUSE_URL), the group-commit window instead of INGEST_FLUSH_INTERVAL_MS: each instance inserts at most once per window per table unless INGEST_FLUSH_ROWS wait.",
  },
  {
    name: "INGEST_MAX_PENDING_ROWS",
    default: "100000",
    description: "Rows waiting to be stored (per table) beyond which ingest answers 503 + Retry-After.",
  },
  {
    name: "INGEST_PROJECT_PENDING_SHARE",
    default: "50",
    description:
      "Percent (1–100) of INGEST_MAX_PENDING_ROWS one project may hold; beyond it that project gets 429 while others still get in.",
  },
  {
    name: "INGEST_PROJECT_RATE",
    default: "200000",
    description:
      "Records per second one project may send to one instance, on average; beyond it 429 + Retry-After (per instance).",
  },
  {
    name: "INGEST_PROJECT_BURST",
    default: "200000",
    description: "Records one project may send at once above its rate (the token bucket's size).",
  },
  {
    name: "INGEST_KEY_RATE",
    default: "200000",
    description: "Records per second one API key may send to one instance, on average; beyond it 429.",
  },
  {
    name: "INGEST_KEY_BURST",
    default: "200000",
    description: "Records one API key may send at once above its rate.",
  },
  {
    name: "REQUESTS_RETENTION_DAYS",
    default: "90",
    description:
      "Days request records are kept (1–3650): a new project's value and the most a project may set in its settings; older records are rejected at ingest and expire (TTL).",
  },
  {
    name: "LOGS_RETENTION_DAYS",
    default: "30",
    description:
      "Days log records are kept (1–3650): a new project's value and the most a project may set; older records are rejected at ingest and expire (TTL).",
  },
  {
    name: "SPANS_RETENTION_DAYS",
    default: "30",
    description:
      "Days spans are kept (1–3650): a new project's value and the most a project may set; older spans are rejected at ingest and expire (TTL).",
  },
  {
    name: "ROLLUPS_RETENTION_DAYS",
    default: "400",
    description:
      "Days the hourly analytics rollups are kept (1–762, i.e. up to 25 months); overview figures and the errors breakdown outlive raw records this long.",
  },
  {
    name: "ALERTS_EVAL_INTERVAL_SECONDS",
    default: "60",
    description:
      "Seconds between evaluations of alert rules (1–3600); one instance evaluates each time, by a lease in the metadata store.",
  },
  {
    name: "ALERTS_ALLOW_PRIVATE_TARGETS",
    default: "false",
    description:
      "`true` lets webhook and Slack channels call loopback, link-local and private addresses (refused by default against SSRF).",
  },
  {
    name: "ALERTS_SEND_TIMEOUT_SECONDS",
    default: "10",
    description:
      "Deadline of one webhook, Slack or test send, answer included (1–60); the delivery claim outlives it by 60 s.",
  },
  {
    name: "ALERTS_DELIVERY_CONCURRENCY",
    default: "16",
    description: "Notifications one instance sends at once (1–256), picked round-robin across projects.",
  },
  {
    name: "ALERTS_DELIVERY_PER_PROJECT",
    default: "4",
    description:
      "Of those, at most this many for one project (1–256), so one project's slow receivers cannot hold the others'.",
  },
  {
    name: "ALERTS_DELIVERY_PER_CHANNEL",
    default: "2",
    description: "At most this many sends at once to one notification channel (1–256).",
  },
  {
    name: "METRICS_TOKEN",
    default: "(unset: /metrics answers 404)",
    description:
      "At least 16 characters: serves Prometheus metrics at `GET /metrics` to `Authorization: Bearer <token>` (see docs/metrics.md).",
  },
];

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses the environment into a frozen Config, or throws ConfigError naming every bad variable. */
export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const fail = <T>(name: string, message: string, fallback: T): T => {
    problems.push(`${name}: ${message}`);
    return fallback;
  };

  const port = parsePort(read("PORT"), (m) => fail("PORT", m, 0));
  const host = read("HOST") ?? "127.0.0.1";
  const dataDirRaw = read("DATA_DIR") ?? "./data";
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);

  const publicUrl = parseUrl(read("PUBLIC_URL") ?? `http://localhost:${port}`, ["http:", "https:"], (m) =>
    fail("PUBLIC_URL", m, ""),
  ).replace(/\/+$/, "");
  const aliases = (read("PUBLIC_URL_ALIASES") ?? "")
    .split(",")
    .map((alias) => alias.trim())
    .filter((alias) => alias !== "")
    .map((alias) =>
      parseUrl(alias, ["http:", "https:"], (m) => fail("PUBLIC_URL_ALIASES", `${alias}: ${m}`, "")),
    );
  const publicOrigins = Object.freeze([
    ...new Set([publicUrl, ...aliases].filter((url) => url !== "").map((url) => new URL(url).origin)),
  ]);

  const databaseUrlRaw = read("DATABASE_URL");
  const databaseUrl =
    databaseUrlRaw === undefined
      ? undefined
      : parseUrl(databaseUrlRaw, ["postgres:", "postgresql:"], (m) => fail("DATABASE_URL", m, undefined));

  const clickhouseUrlRaw = read("CLICKHOUSE_URL");
  const clickhouseUrl =
    clickhouseUrlRaw === undefined
      ? undefined
      : parseUrl(clickhouseUrlRaw, ["http:", "https:"], (m) => fail("CLICKHOUSE_URL", m, undefined));

  const clickhouseDatabase = read("CLICKHOUSE_DATABASE") ?? "sightline";
  if (!IDENTIFIER.test(clickhouseDatabase)) {
    fail("CLICKHOUSE_DATABASE", "must be letters, digits and underscores, not starting with a digit", 0);
  }

  const clusterName = read("CLICKHOUSE_CLUSTER");
  const clusterDdlRaw = (read("CLICKHOUSE_CLUSTER_DDL") ?? "on-cluster").toLowerCase();
  if (clusterDdlRaw !== "on-cluster" && clusterDdlRaw !== "per-node") {
    fail("CLICKHOUSE_CLUSTER_DDL", "must be on-cluster or per-node", 0);
  }
  if (clusterName !== undefined && !IDENTIFIER.test(clusterName)) {
    fail("CLICKHOUSE_CLUSTER", "must be letters, digits and underscores, not starting with a digit", 0);
  }
  if (clusterName !== undefined && clickhouseUrl === undefined) {
    fail("CLICKHOUSE_CLUSTER", "needs CLICKHOUSE_URL: embedded chDB is one node", 0);
  }
  if (clusterName === undefined && read("CLICKHOUSE_CLUSTER_DDL") !== undefined) {
    fail("CLICKHOUSE_CLUSTER_DDL", "applies only with CLICKHOUSE_CLUSTER", 0);
  }
  const clickhouseCluster =
    clusterName === undefined
      ? undefined
      : Object.freeze({
          name: clusterName,
          ddl: clusterDdlRaw === "per-node" ? "per-node" : "on-cluster",
        } as const);

  const eventsDdlRaw = (read("EVENTS_DDL") ?? "auto").toLowerCase();
  if (eventsDdlRaw !== "auto" && eventsDdlRaw !== "off") fail("EVENTS_DDL", "must be auto or off", 0);
  const eventsDdl = eventsDdlRaw === "off" ? "off" : "auto";

  const batchingRaw = (read("INGEST_SERVER_BATCHING") ?? "async").toLowerCase();
  if (batchingRaw !== "async" && batchingRaw !== "client") {
    fail("INGEST_SERVER_BATCHING", "must be async or client", 0);
  }
  const ingestServerBatching = batchingRaw === "client" ? "client" : "async";

  const insertFormatRaw = (read("INGEST_INSERT_FORMAT") ?? "binary").toLowerCase();
  if (insertFormatRaw !== "binary" && insertFormatRaw !== "json") {
    fail("INGEST_INSERT_FORMAT", "must be binary or json", 0);
  }
  const ingestInsertFormat = insertFormatRaw === "json" ? "JSONCompactEachRow" : "RowBinary";

  const smtpUrlRaw = read("SMTP_URL");
  const smtpUrl =
    smtpUrlRaw === undefined
      ? undefined
      : parseUrl(smtpUrlRaw, ["smtp:", "smtps:"], (m) => fail("SMTP_URL", m, undefined));
  const mailFrom = read("MAIL_FROM") ?? "Sightline <no-reply@localhost>";
  if (!/@[^\s@>]+/.test(mailFrom)) fail("MAIL_FROM", "must contain an e-mail address", 0);

  const jwtSecret = read("JWT_SECRET");
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    fail("JWT_SECRET", "must be at least 32 characters (or unset to generate one)", 0);
  }

  const trustProxy = parseTrustProxy(read("TRUST_PROXY"), (m) => fail("TRUST_PROXY", m, false));

  const logLevelRaw = (read("LOG_LEVEL") ?? "info").toLowerCase();
  const logLevel = LOG_LEVELS.includes(logLevelRaw as LogLevel)
    ? (logLevelRaw as LogLevel)
    : fail<LogLevel>("LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")}`, "info");

  const integer = (name: string, fallback: number, min: number, max: number): number =>
    parseInteger(read(name), fallback, min, max, (m) => fail(name, m, fallback));
  const clickhouseMaxExecutionTime = Object.freeze({
    dashboard: integer("CLICKHOUSE_DASHBOARD_TIMEOUT", 30, 0, 86_400),
    alerts: integer("CLICKHOUSE_ALERTS_TIMEOUT", 60, 0, 86_400),
    export: integer("CLICKHOUSE_EXPORT_TIMEOUT", 0, 0, 86_400),
  });
  const flushIntervalMs = integer("INGEST_FLUSH_INTERVAL_MS", 50, 1, 60_000);
  // Read always, so a bad value is refused whichever store is in use.
  const serverFlushIntervalMs = integer("INGEST_SERVER_WINDOW_MS", flushIntervalMs, 1, 60_000);
  const ingest = Object.freeze({
    maxBatch: integer("INGEST_MAX_BATCH", 1000, 1, 100_000),
    maxBodyBytes: integer("INGEST_MAX_BODY", 10 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    flushRows: integer("INGEST_FLUSH_ROWS", 10_000, 1, 1_000_000),
    flushIntervalMs: clickhouseUrl === undefined ? flushIntervalMs : serverFlushIntervalMs,
    maxPendingRows: integer("INGEST_MAX_PENDING_ROWS", 100_000, 1, 100_000_000),
    projectPendingShare: integer("INGEST_PROJECT_PENDING_SHARE", 50, 1, 100) / 100,
    // Far above what one app sends, and above what one 2-core instance ingests (~100k records/s
    // in bench:ingest): the defaults never throttle an honest app; operators lower them to fit.
    projectRate: integer("INGEST_PROJECT_RATE", 200_000, 1, 100_000_000),
    projectBurst: integer("INGEST_PROJECT_BURST", 200_000, 1, 100_000_000),
    keyRate: integer("INGEST_KEY_RATE", 200_000, 1, 100_000_000),
    keyBurst: integer("INGEST_KEY_BURST", 200_000, 1, 100_000_000),
  });
  const retention = Object.freeze({
    // The TTL is a DateTime (it ends in 2106): much longer retention would wrap into the past.
    requestsDays: integer("REQUESTS_RETENTION_DAYS", 90, 1, 3650),
    logsDays: integer("LOGS_RETENTION_DAYS", 30, 1, 3650),
    spansDays: integer("SPANS_RETENTION_DAYS", 30, 1, 3650),
    rollupsDays: integer("ROLLUPS_RETENTION_DAYS", 400, 1, 762),
  });

  const alerts = Object.freeze({
    evalIntervalSeconds: integer("ALERTS_EVAL_INTERVAL_SECONDS", 60, 1, 3600),
    allowPrivateTargets: parseBoolean(read("ALERTS_ALLOW_PRIVATE_TARGETS"), (m) =>
      fail("ALERTS_ALLOW_PRIVATE_TARGETS", m, false),
    ),
    sendTimeoutSeconds: integer("ALERTS_SEND_TIMEOUT_SECONDS", 10, 1, 60),
    delivery: Object.freeze({
      overall: integer("ALERTS_DELIVERY_CONCURRENCY", 16, 1, 256),
      perProject: integer("ALERTS_DELIVERY_PER_PROJECT", 4, 1, 256),
      perChannel: integer("ALERTS_DELIVERY_PER_CHANNEL", 2, 1, 256),
    }),
  });

  const contract = Object.freeze({
    intervalSeconds: integer("CONTRACT_INTERVAL_SECONDS", 60, 5, 3600),
    samplePerOperation: integer("CONTRACT_SAMPLE_PER_OPERATION", 100, 1, 1000),
    unusedDays: integer("CONTRACT_UNUSED_DAYS", 7, 1, 90),
  });

  const metricsToken = read("METRICS_TOKEN");
  if (metricsToken !== undefined && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    fail("METRICS_TOKEN", "must be at least 16 characters without spaces (or unset to disable /metrics)", 0);
  }
  // Per instance and in process: counting each token's requests in the metadata store would cost
  // a write per request.
  const personalTokenRequestsPerMinute = integer("PAT_REQUESTS_PER_MINUTE", 600, 1, 100_000);

  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port,
    host,
    dataDir,
    publicUrl,
    publicOrigins,
    databaseUrl,
    clickhouseUrl,
    clickhouseDatabase,
    clickhouseCluster,
    eventsDdl,
    clickhouseMaxExecutionTime,
    ingestServerBatching,
    ingestInsertFormat,
    smtpUrl,
    mailFrom,
    jwtSecret,
    trustProxy,
    logLevel,
    ingest,
    retention,
    alerts,
    contract,
    metricsToken,
    personalTokenRequestsPerMinute,
    paths: Object.freeze({
      sqlite: resolve(dataDir, "sightline.sqlite"),
      chdb: resolve(dataDir, "events"),
      jwtSecret: resolve(dataDir, "jwt-secret"),
      outbox: resolve(dataDir, "outbox"),
    }),
  });
}

function parsePort(raw: string | undefined, fail: (message: string) => number): number {
  if (raw === undefined) return 8080;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) return fail("must be an integer from 1 to 65535");
  return port;
}

function parseInteger(
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
  fail: (message: string) => number,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    return fail(`must be an integer from ${min} to ${max}`);
  return value;
}

function parseUrl<T>(raw: string, protocols: readonly string[], fail: (message: string) => T): string | T {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail("is not a valid URL");
  }
  if (!protocols.includes(url.protocol)) {
    return fail(`must start with ${protocols.map((p) => `${p}//`).join(" or ")}`);
  }
  return raw;
}

function parseBoolean(raw: string | undefined, fail: (message: string) => boolean): boolean {
  if (raw === undefined) return false;
  const lowered = raw.toLowerCase();
  if (["true", "1", "on", "yes"].includes(lowered)) return true;
  if (["false", "0", "off", "no"].includes(lowered)) return false;
  return fail("must be true or false");
}

function parseTrustProxy(raw: string | undefined, fail: (message: string) => TrustProxy): TrustProxy {
  if (raw === undefined) return false;
  const lowered = raw.toLowerCase();
  if (["false", "0", "off", "no"].includes(lowered)) return false;
  if (["true", "on", "yes"].includes(lowered)) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(",").map((entry) => entry.trim());
  const looksLikeAddress = (entry: string) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry) && entry.length > 0;
  if (entries.every(looksLikeAddress)) return entries.join(",");
  return fail("must be true, false, a hop count, or comma-separated IP addresses/CIDRs");
}
