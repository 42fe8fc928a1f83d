// A real ClickHouse server for tests, with nothing beyond `npm ci`: clickhouse-local from chDB's
// libchdb.so, started with a server config, serves ClickHouse's own HTTP and native handlers in
// a child process (clickhouse-server.child.ts). Parsing, settings, auth and errors are the
// server's; this module writes the config, waits for the server to answer and stops it.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cleanEnv, freePort } from "./process.js";

const CHILD_PATH = fileURLToPath(new URL("./clickhouse-server.child.ts", import.meta.url));

/** The account tests connect with; only it can read or write data. */
export const CLICKHOUSE_TEST_USER = "sightline";

/** The README's least-privilege roles, granted on this one database only (same password as the
 *  test user): the migrator changes its tables, the serving user reads and writes rows. */
export const LEAST_PRIVILEGE_DATABASE = "t_least_privilege";
export const CLICKHOUSE_MIGRATOR_USER = "sightline_migrator";
export const CLICKHOUSE_SERVING_USER = "sightline_serving";

export interface ClickhouseServer {
  /** `http://sightline:<password>@127.0.0.1:<port>`, the form CLICKHOUSE_URL takes. */
  readonly url: string;
  readonly httpPort: number;
  readonly tcpPort: number;
  /** The child process serving it (and its process group). */
  readonly pid: number;
  /** Config, users and data; stop() removes it. */
  readonly directory: string;
  /** What the server's `version()` answers, e.g. `26.7.2.1`. */
  readonly version: string;
  /** Kills the server's process group and removes its directory. Idempotent. */
  stop(): Promise<void>;
  /** Kills the server's process group, keeping its directory (its data). Idempotent. */
  kill(): Promise<void>;
}

export interface ClickhouseServerOptions {
  /** Loading the 560 MB library and starting takes about a second idle, far more on a busy
   *  machine. Default 120 s. */
  readonly startTimeoutMs?: number;
  /** Keep `system.part_log` (every part created, merged or removed): `npm run bench:fleet`
   *  counts part creations from it. Off for the suites, which do not read it. */
  readonly partLog?: boolean;
}

/** A server's directory, ports and the test users' password, before its files are written. */
export interface ServerLayout {
  readonly dir: string;
  readonly httpPort: number;
  readonly tcpPort: number;
  readonly password: string;
}

// The last statement keeps clickhouse-local's main running, and with it the listeners, until the
// process is killed. One row per second keeps it idle.
const SERVE_QUERY = [
  "SYSTEM START LISTEN HTTP",
  "SYSTEM START LISTEN TCP",
  "SELECT sleepEachRow(1) FROM system.numbers SETTINGS max_block_size = 1",
].join("; ");

const PORT_ATTEMPTS = 3;

export async function startClickhouseServer(
  options: ClickhouseServerOptions = {},
): Promise<ClickhouseServer> {
  for (let attempt = 1; ; attempt += 1) {
    const layout = await allocateLayout();
    await writeServerFiles(layout, options.partLog === true ? PART_LOG_CONFIG : "");
    try {
      return await launch(layout, options.startTimeoutMs ?? 120_000);
    } catch (error) {
      await rm(layout.dir, { recursive: true, force: true });
      // freePort() only finds a port that was free a moment ago; another process may take it.
      const portTaken = error instanceof Error && /Address already in use/i.test(error.message);
      if (!portTaken || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

const DIR_PREFIX = "sightline-clickhouse-";

/** Directories of servers whose test process was killed outright (named by that process's pid):
 *  nothing else removes them. */
async function removeAbandonedDirs(): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    const owner = new RegExp(`^${DIR_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (owner !== undefined && !processAlive(Number(owner))) {
      await rm(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A fresh directory and two free ports; `password` shared by the nodes of a cluster. */
export async function allocateLayout(
  password: string = randomBytes(16).toString("hex"),
  taken: readonly number[] = [],
): Promise<ServerLayout> {
  await removeAbandonedDirs();
  const dir = await mkdtemp(join(tmpdir(), `${DIR_PREFIX}${process.pid}-`));
  const port = async () => {
    for (;;) {
      const candidate = await freePort();
      if (!taken.includes(candidate)) return candidate;
    }
  };
  const httpPort = await port();
  let tcpPort = await port();
  while (tcpPort === httpPort) tcpPort = await port();
  await mkdir(join(dir, "data"));
  return { dir, httpPort, tcpPort, password };
}

/** Writes the server's config and users; `extraConfig` (XML inside `<clickhouse>`) adds e.g. a
 *  cluster's `<remote_servers>`. */
export async function writeServerFiles(layout: ServerLayout, extraConfig = ""): Promise<void> {
  await writeFile(
    join(layout.dir, "config.xml"),
    serverConfig(layout.dir, layout.httpPort, layout.tcpPort, extraConfig),
  );
  await writeFile(join(layout.dir, "users.xml"), usersConfig(layout.password));
}

/**
 * Modest on purpose: the suites run on two shared cores next to chDB in every test process.
 * Memory is capped well below the machine's, and background pools (merges, schedules) are kept
 * to the few threads a test's small tables need.
 * query_log is on so tests can read the log_comment each statement carries (flushed by SYSTEM FLUSH LOGS).
 */
function serverConfig(dir: string, httpPort: number, tcpPort: number, extraConfig: string): string {
  return `<clickhouse>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <users_config>${dir}/users.xml</users_config>
  <logger>
    <level>warning</level>
    <log>${dir}/server.log</log>
    <console>0</console>
  </logger>
  <max_server_memory_usage>2147483648</max_server_memory_usage>
  <background_pool_size>2</background_pool_size>
  <background_schedule_pool_size>8</background_schedule_pool_size>
  <background_common_pool_size>2</background_common_pool_size>
  <background_move_pool_size>1</background_move_pool_size>
  <background_fetches_pool_size>1</background_fetches_pool_size>
  <background_buffer_flush_schedule_pool_size>1</background_buffer_flush_schedule_pool_size>
  <background_message_broker_schedule_pool_size>1</background_message_broker_schedule_pool_size>
  <background_distributed_schedule_pool_size>1</background_distributed_schedule_pool_size>
  <asynchronous_metrics_update_period_s>60</asynchronous_metrics_update_period_s>
  <query_log>
    <database>system</database>
    <table>query_log</table>
    <flush_interval_milliseconds>60000</flush_interval_milliseconds>
  </query_log>
${extraConfig}</clickhouse>
`;
}

/** system.part_log, for a bench that counts the parts inserts create (off for the suites). */
const PART_LOG_CONFIG = `  <part_log>
    <database>system</database>
    <table>part_log</table>
    <flush_interval_milliseconds>7500</flush_interval_milliseconds>
  </part_log>
`;

/**
 * clickhouse-local signs itself in as a passwordless `default` from 127.0.0.1 before it starts
 * the listeners, so that user must exist and is reachable over loopback. It is granted only what
 * starting and holding the listeners takes; every table is reachable only by the
 * password-protected test user.
 */
function usersConfig(password: string): string {
  const hash = createHash("sha256").update(password).digest("hex");
  return `<clickhouse>
  <profiles>
    <default>
      <max_threads>2</max_threads>
    </default>
  </profiles>
  <quotas><default/></quotas>
  <users>
    <default>
      <no_password/>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
      <grants>
        <query>GRANT SYSTEM LISTEN ON *.*</query>
        <query>GRANT SELECT ON system.numbers</query>
      </grants>
    </default>
    <${CLICKHOUSE_TEST_USER}>
      <password_sha256_hex>${hash}</password_sha256_hex>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
      <grants><query>GRANT ALL ON *.*</query></grants>
    </${CLICKHOUSE_TEST_USER}>
    <${CLICKHOUSE_MIGRATOR_USER}>
      <password_sha256_hex>${hash}</password_sha256_hex>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
      <grants>
        <query>GRANT SELECT, INSERT, CREATE TABLE, CREATE VIEW, ALTER TABLE, DROP TABLE, TRUNCATE ON ${LEAST_PRIVILEGE_DATABASE}.*</query>
        <query>GRANT TABLE ENGINE ON MergeTree</query>
        <query>GRANT TABLE ENGINE ON ReplacingMergeTree</query>
        <query>GRANT TABLE ENGINE ON AggregatingMergeTree</query>
      </grants>
    </${CLICKHOUSE_MIGRATOR_USER}>
    <${CLICKHOUSE_SERVING_USER}>
      <password_sha256_hex>${hash}</password_sha256_hex>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
      <grants><query>GRANT SELECT, INSERT ON ${LEAST_PRIVILEGE_DATABASE}.*</query></grants>
    </${CLICKHOUSE_SERVING_USER}>
  </users>
</clickhouse>
`;
}

/** Starts a server on a layout whose files are written; stop() kills it and removes the
 *  directory, kill() only kills it (a later launch on the same layout finds its data again). */
export async function launch(layout: ServerLayout, timeoutMs = 120_000): Promise<ClickhouseServer> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      CHILD_PATH,
      `--config-file=${layout.dir}/config.xml`,
      `--path=${layout.dir}/data/`,
      // clickhouse-local takes its log level from the command line, not the config.
      "--log-level=warning",
      "--multiquery",
      `--query=${SERVE_QUERY}`,
    ],
    {
      // Its own process group, so stop() reaches everything it started.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: cleanEnv({ SIGHTLINE_CH_PARENT_PID: String(process.pid) }),
    },
  );
  const output = tail(child);
  const exited = once(child, "exit");
  const running = () => child.exitCode === null && child.signalCode === null;
  const terminate = async () => {
    process.off("exit", killOnExit);
    if (running()) {
      killGroup(child);
      await exited;
    }
  };
  // A parent that exits without calling stop() still takes the server with it; one killed
  // outright does too, through the child's parent-death signal.
  const killOnExit = () => killGroup(child);
  process.on("exit", killOnExit);

  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const version = await selectVersion(layout.httpPort, layout.password);
      if (version !== undefined) return serving(layout, child.pid ?? 0, version, terminate);
      if (!running()) throw new Error(`ClickHouse test server exited before answering:\n${output()}`);
      if (Date.now() > deadline) {
        throw new Error(`ClickHouse test server did not answer within ${timeoutMs} ms:\n${output()}`);
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 250))]);
    }
  } catch (error) {
    await terminate();
    throw error;
  }
}

function serving(
  layout: ServerLayout,
  pid: number,
  version: string,
  terminate: () => Promise<void>,
): ClickhouseServer {
  let stopping: Promise<void> | undefined;
  return {
    url: `http://${CLICKHOUSE_TEST_USER}:${layout.password}@127.0.0.1:${layout.httpPort}`,
    httpPort: layout.httpPort,
    tcpPort: layout.tcpPort,
    pid,
    directory: layout.dir,
    version,
    stop: () => (stopping ??= terminate().then(() => rm(layout.dir, { recursive: true, force: true }))),
    kill: terminate,
  };
}

/** `version()` as the test user, or undefined while nothing answers yet. */
async function selectVersion(port: number, password: string): Promise<string | undefined> {
  const auth = Buffer.from(`${CLICKHOUSE_TEST_USER}:${password}`).toString("base64");
  try {
    const response = await fetch(
      `http://127.0.0.1:${port}/?query=${encodeURIComponent("SELECT version()")}`,
      {
        headers: { authorization: `Basic ${auth}` },
        signal: AbortSignal.timeout(5_000),
      },
    );
    const body = await response.text();
    if (!response.ok) throw new Error(`ClickHouse test server refused the test user: ${body}`);
    return body.trim();
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("ClickHouse test server")) throw error;
    return undefined;
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** The last few kilobytes the child printed, for start-up errors. */
function tail(child: ChildProcess): () => string {
  let text = "";
  const keep = (chunk: string) => {
    text = (text + chunk).slice(-8_000);
  };
  child.stdout?.setEncoding("utf8").on("data", keep);
  child.stderr?.setEncoding("utf8").on("data", keep);
  return () => text;
}
