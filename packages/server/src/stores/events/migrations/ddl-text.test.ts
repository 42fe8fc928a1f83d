// The events DDL as text: every statement the migrations issue on a fresh store, per topology.
// Single node must stay byte-for-byte what it was before clusters existed (the snapshot file was
// recorded from that code); cluster modes are checked for what each statement must carry, and
// their full text is kept in snapshot files for review (docs/adr/0024-clickhouse-clusters.md).
import { describe, expect, it } from "vitest";
import {
  API_LOGS,
  API_REQUESTS,
  API_SPANS,
  BACKFILL_SNAPSHOT,
  LATENCY_BACKFILL_SNAPSHOT,
  LATENCY_ROLLUP_STATE,
  LISTS_BACKFILL_SNAPSHOT,
  LISTS_ROLLUP_STATE,
  ROLLUP_STATE,
  ROLLUPS,
  STATUSES_BACKFILL_SNAPSHOT,
  STATUSES_ROLLUP_STATE,
  TIERS_BACKFILL_SNAPSHOT,
  TIERS_ROLLUP_STATE,
  UPTIME_RESULTS,
} from "../tables/index.js";
import type { EventsTopology } from "../topology.js";
import { recordMigrationDdl } from "./ddl-recorder.js";
import { eventsMigrations } from "./index.js";

const ON_CLUSTER: EventsTopology = { kind: "cluster", cluster: "fleet", ddl: "on-cluster" };
const PER_NODE: EventsTopology = { kind: "cluster", cluster: "fleet", ddl: "per-node" };

const SHARDED = [API_REQUESTS, API_LOGS, API_SPANS, UPTIME_RESULTS, ...ROLLUPS.map((rollup) => rollup.table)];
const UNSHARDED = [
  "schema_migrations",
  ROLLUP_STATE.name,
  LISTS_ROLLUP_STATE.name,
  TIERS_ROLLUP_STATE.name,
  STATUSES_ROLLUP_STATE.name,
  LATENCY_ROLLUP_STATE.name,
];

const created = (statements: readonly string[], name: string): string[] =>
  statements.filter((sql) => new RegExp(`^CREATE TABLE IF NOT EXISTS sightline\\.${name}\\b(?!_)`).test(sql));
const ddl = (sql: string) => /^(CREATE|ALTER|DROP|EXCHANGE|TRUNCATE)\b/.test(sql);

describe("events DDL text", () => {
  it("single node: unchanged, statement for statement", async () => {
    const statements = await recordMigrationDdl({ kind: "single" });
    await expect(statements.join(";\n\n") + ";\n").toMatchFileSnapshot("./__snapshots__/single-node.sql");
    expect(statements.join("\n")).not.toMatch(/ON CLUSTER|Replicated|Distributed|_local\b/);
  });

  describe("ON CLUSTER mode", async () => {
    const statements = await recordMigrationDdl(ON_CLUSTER);

    it("is kept for review", async () => {
      await expect(statements.join(";\n\n") + ";\n").toMatchFileSnapshot("./__snapshots__/on-cluster.sql");
    });

    it("runs every statement on the whole cluster", () => {
      const bare = statements.filter((sql) => ddl(sql) && !/ ON CLUSTER fleet( |$)/.test(sql));
      expect(bare).toEqual([]);
      // The rest: each migration's record, into the cluster-wide history.
      const rest = statements.filter((sql) => !ddl(sql));
      expect(rest).toHaveLength(eventsMigrations.length);
      for (const sql of rest) expect(sql).toMatch(/^INSERT INTO sightline\.schema_migrations /);
    });

    it.each(SHARDED.map((table) => [table.name, table] as const))(
      "%s: a Replicated local table per shard and a Distributed table over it",
      (name, table) => {
        const engine = (table.engine ?? "MergeTree").replace(/^/, "Replicated");
        const [local, ...again] = created(statements, `${name}_local`);
        expect(again).toEqual([]);
        expect(local).toContain(
          `ENGINE = ${engine}('/clickhouse/tables/{shard}/sightline/${name}_local', '{replica}')`,
        );
        const [distributed] = created(statements, name);
        expect(distributed).toContain(
          `ENGINE = Distributed('fleet', 'sightline', '${name}_local', ${table.shardBy ?? "?"})`,
        );
        expect(distributed).not.toContain("CODEC");
        expect(distributed).not.toContain("INDEX");
      },
    );

    it.each(UNSHARDED)("%s: one copy for the whole cluster, every node a replica", (name) => {
      const [table] = created(statements, name);
      expect(table).toMatch(
        new RegExp(
          `ENGINE = ReplicatedReplacingMergeTree\\('/clickhouse/tables/all/sightline/${name}', '\\{replica\\}'\\)`,
        ),
      );
      expect(created(statements, `${name}_local`)).toEqual([]);
    });

    it("spreads one tenant over the shards: no table is sharded by project", () => {
      for (const table of SHARDED)
        expect(table.shardBy).not.toMatch(/^project_id$|cityHash64\(project_id\)$/);
      expect(API_REQUESTS.shardBy).toBe("cityHash64(id)");
      expect(API_SPANS.shardBy).toBe("cityHash64(trace_id)");
    });

    it("feeds each shard's rollups from its own rows", () => {
      const views = statements.filter((sql) => sql.startsWith("CREATE MATERIALIZED VIEW"));
      // Migration 6's two, recreated by migration 9, migration 10's two, all four recreated
      // by migration 11 (carrying rollup_days), migration 12's three, the consumer rollup's
      // recreated by migration 13, migration 14's one and migration 16's one.
      expect(views).toHaveLength(16);
      for (const rollup of ROLLUPS) {
        const latest = views.filter((sql) => sql.includes(`.${rollup.view} `)).at(-1);
        expect(latest).toContain(`TO sightline.${rollup.table.name}_local AS SELECT`);
        // The daily summary and errors rollups merge their hourly rollup's live rows.
        const source = rollup.fedFrom?.table.name ?? API_REQUESTS.name;
        expect(latest).toContain(`FROM sightline.${source}_local`);
        expect(latest).toContain("max(rollup_days) AS rollup_days");
      }
    });

    it("rebuilds the stored tables in migration 9 and widens the Distributed ones", () => {
      for (const table of [API_REQUESTS, API_LOGS, API_SPANS, UPTIME_RESULTS]) {
        expect(statements).toContain(
          `EXCHANGE TABLES sightline.${table.name}_local AND sightline.${table.name}_rebuild_local ON CLUSTER fleet`,
        );
      }
      expect(statements).toContain(
        "ALTER TABLE sightline.api_requests ON CLUSTER fleet ADD COLUMN IF NOT EXISTS retention_days UInt16, " +
          "ADD COLUMN IF NOT EXISTS stored_on Date",
      );
      expect(statements.filter((sql) => sql.includes("ALTER TABLE sightline.uptime_results "))).toEqual([]);
    });

    it("adds columns to both the stored and the Distributed table", () => {
      expect(statements).toContainEqual(
        expect.stringMatching(
          /^ALTER TABLE sightline\.api_logs_local ON CLUSTER fleet ADD COLUMN IF NOT EXISTS fingerprint String CODEC\(ZSTD\(1\)\)$/,
        ),
      );
      expect(statements).toContain(
        "ALTER TABLE sightline.api_logs ON CLUSTER fleet ADD COLUMN IF NOT EXISTS fingerprint String",
      );
    });

    it("projects the stored requests only: a Distributed table holds no parts", () => {
      const projections = statements.filter((sql) => sql.startsWith("ALTER") && sql.includes(" PROJECTION "));
      expect(projections).toEqual([
        expect.stringMatching(
          /^ALTER TABLE sightline\.api_requests_local ON CLUSTER fleet ADD PROJECTION IF NOT EXISTS by_consumer \(SELECT .* ORDER BY \(project_id, consumer_id, timestamp\)\)$/,
        ),
        "ALTER TABLE sightline.api_requests_local ON CLUSTER fleet MATERIALIZE PROJECTION by_consumer",
        expect.stringMatching(
          /^ALTER TABLE sightline\.api_requests_local ON CLUSTER fleet ADD PROJECTION IF NOT EXISTS by_endpoint \(SELECT .* ORDER BY \(project_id, route, method, app_id, timestamp\)\)$/,
        ),
        "ALTER TABLE sightline.api_requests_local ON CLUSTER fleet MATERIALIZE PROJECTION by_endpoint",
      ]);
      // A later snapshot has it too: ATTACH PARTITION … FROM needs the same projections.
      const [snapshot] = created(statements, `${LATENCY_BACKFILL_SNAPSHOT}_local`);
      expect(snapshot).toContain("PROJECTION by_consumer (SELECT ");
      expect(snapshot).not.toContain("by_endpoint");
      const [before] = created(statements, `${STATUSES_BACKFILL_SNAPSHOT}_local`);
      expect(before).not.toContain("PROJECTION");
    });

    it("snapshots api_requests from its declaration, never AS the Replicated table", () => {
      for (const snapshot of [
        BACKFILL_SNAPSHOT,
        LISTS_BACKFILL_SNAPSHOT,
        TIERS_BACKFILL_SNAPSHOT,
        STATUSES_BACKFILL_SNAPSHOT,
        LATENCY_BACKFILL_SNAPSHOT,
      ]) {
        const [local] = created(statements, `${snapshot}_local`);
        expect(local).toContain(`/clickhouse/tables/{shard}/sightline/${snapshot}_local'`);
        expect(statements.join("\n")).not.toContain(`${snapshot} AS `);
      }
      expect(statements).toContain(
        "ALTER TABLE sightline.api_requests_backfill_local ON CLUSTER fleet ATTACH PARTITION tuple() FROM sightline.api_requests_local",
      );
    });
  });

  describe("per-node mode", async () => {
    const statements = await recordMigrationDdl(PER_NODE);

    it("has the cluster's tables with plain engines and no ON CLUSTER", () => {
      const text = statements.join("\n");
      expect(text).not.toMatch(/ON CLUSTER|Replicated/);
      for (const table of SHARDED) {
        expect(created(statements, `${table.name}_local`)[0]).toContain(
          `ENGINE = ${table.engine ?? "MergeTree"}\n`,
        );
        expect(created(statements, table.name)[0]).toContain(
          `ENGINE = Distributed('fleet', 'sightline', '${table.name}_local'`,
        );
      }
    });

    it("differs from ON CLUSTER mode only in those two respects", async () => {
      const onCluster = await recordMigrationDdl(ON_CLUSTER);
      const plain = onCluster.map((sql) =>
        sql
          .replaceAll(" ON CLUSTER fleet", "")
          .replace(/ENGINE = Replicated(\w+)\('[^']*', '\{replica\}'\)/, "ENGINE = $1"),
      );
      expect(statements).toEqual(plain);
    });
  });
});
