// A real two-shard ClickHouse cluster for tests and benchmarks: two clickhouse-local servers
// (clickhouse-server.ts) whose configs share one `<remote_servers>` cluster, one replica per
// shard, the same users and password. Distributed tables over per-node MergeTree tables work;
// Keeper, Replicated* engines and ON CLUSTER do not (docs/adr/0015, docs/adr/0024), so the events
// schema goes onto each node with CLICKHOUSE_CLUSTER_DDL=per-node. Usable outside vitest.
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import {
  allocateLayout,
  type ClickhouseServer,
  launch,
  type ServerLayout,
  writeServerFiles,
} from "./clickhouse-server.js";

/** The cluster name both nodes' `<remote_servers>` declare. */
export const TEST_CLUSTER = "sightline_test";

export interface ClickhouseCluster {
  readonly name: string;
  /** Each node's CLICKHOUSE_URL form (`http://sightline:<password>@127.0.0.1:<port>`), shard order. */
  readonly urls: readonly string[];
  readonly httpPorts: readonly number[];
  /** Kills node `index` (0-based), keeping its data; resume() starts it again on the same ports. */
  pause(index: number): Promise<void>;
  resume(index: number): Promise<void>;
  /** Kills both nodes and removes their directories. Idempotent. */
  stop(): Promise<void>;
}

function remoteServers(layouts: readonly ServerLayout[], password: string): string {
  const shards = layouts
    .map(
      (layout) => `      <shard>
        <replica>
          <host>127.0.0.1</host>
          <port>${layout.tcpPort}</port>
          <user>sightline</user>
          <password>${password}</password>
        </replica>
      </shard>`,
    )
    .join("\n");
  return `  <remote_servers>
    <${TEST_CLUSTER}>
${shards}
    </${TEST_CLUSTER}>
  </remote_servers>
`;
}

/** Starts two nodes of one cluster (in parallel: about a second each when idle). */
export async function startClickhouseCluster(
  options: { readonly startTimeoutMs?: number } = {},
): Promise<ClickhouseCluster> {
  const password = randomBytes(16).toString("hex");
  const first = await allocateLayout(password);
  const second = await allocateLayout(password, [first.httpPort, first.tcpPort]);
  const layouts = [first, second] as const;
  const config = remoteServers(layouts, password);
  const servers: Array<ClickhouseServer | undefined> = [undefined, undefined];
  const timeout = options.startTimeoutMs ?? 120_000;
  const start = async (index: number) => {
    const layout = layouts[index];
    if (layout === undefined) throw new RangeError(`no node ${index}`);
    servers[index] = await launch(layout, timeout);
  };
  const removeAll = () =>
    Promise.all(layouts.map((layout) => rm(layout.dir, { recursive: true, force: true })));
  try {
    await Promise.all(layouts.map((layout) => writeServerFiles(layout, config)));
    await Promise.all([start(0), start(1)]);
  } catch (error) {
    await Promise.all(servers.map((server) => server?.kill()));
    await removeAll();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    name: TEST_CLUSTER,
    urls: servers.map((server) => server?.url ?? ""),
    httpPorts: layouts.map((layout) => layout.httpPort),
    async pause(index) {
      await servers[index]?.kill();
      servers[index] = undefined;
    },
    resume: (index) => start(index),
    stop: () =>
      (stopping ??= Promise.all(servers.map((server) => server?.kill())).then(async () => {
        await removeAll();
      })),
  };
}
