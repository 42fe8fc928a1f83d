// The events DDL per topology, rendered from the same table declarations (docs/adr/0024): on one
// node each statement is exactly what it always was; on a cluster each sharded table becomes a
// per-node local table (`<name>_local`) plus a Distributed table under its own name that every
// read and insert uses, views feed the local tables, and (ON CLUSTER mode) every statement runs
// on all nodes with Replicated engines.
import { assertIdentifier } from "../dialect.js";
import type { EventsTopology } from "../topology.js";
import type { Rollup } from "./rollups.table.js";
import { coarsenSelect, ROLLUP_SOURCE, rollupSelect } from "./rollups.table.js";
import {
  addColumnsStatement,
  addProjectionsStatements,
  createTableStatement,
  type EventsColumn,
  type EventsTable,
} from "./table.js";

const LOCAL_SUFFIX = "_local";

/** ` ON CLUSTER <name>` where DDL is distributed by the server, else nothing. */
export function onCluster(topology: EventsTopology): string {
  return topology.kind === "cluster" && topology.ddl === "on-cluster"
    ? ` ON CLUSTER ${assertIdentifier(topology.cluster, "cluster")}`
    : "";
}

/** The table that stores `name`'s rows on each node: itself on one node or for an unsharded
 *  table, `<name>_local` behind a cluster's Distributed table. */
export function storageName(topology: EventsTopology, name: string, sharded = true): string {
  return topology.kind === "cluster" && sharded ? `${name}${LOCAL_SUFFIX}` : name;
}

/**
 * The engine clause of a stored table. ON CLUSTER mode: `Replicated<engine>` at
 * `/clickhouse/tables/{shard}/<database>/<table>` (the servers' `{shard}` and `{replica}` macros
 * name each node's place); an unsharded table's path has `all` for the shard, so every node is a
 * replica of one copy. Per-node mode and one node: the plain engine.
 */
export function storageEngine(
  topology: EventsTopology,
  engine: string,
  database: string,
  table: string,
  sharded: boolean,
): string {
  if (topology.kind !== "cluster" || topology.ddl === "per-node") return engine;
  const path = `/clickhouse/tables/${sharded ? "{shard}" : "all"}/${database}/${table}`;
  return `Replicated${engine}('${path}', '{replica}')`;
}

/** A Distributed table's columns carry no codec (it stores nothing). */
const withoutCodec = (column: EventsColumn): string => column.type.replace(/ CODEC\(.*\)$/, "");

/** `CREATE TABLE` statements for `table` (named `name`) as migration `version` had it. */
export function createTableStatements(
  topology: EventsTopology,
  table: EventsTable,
  database: string,
  version: number,
  name: string = table.name,
): string[] {
  if (topology.kind === "single") return [createTableStatement(table, database, version, name)];
  const sharded = table.shardBy !== undefined;
  const stored = storageName(topology, name, sharded);
  const engine = storageEngine(topology, table.engine ?? "MergeTree", database, stored, sharded);
  const statements = [
    createTableStatement(table, database, version, stored, { onCluster: onCluster(topology), engine }),
  ];
  if (table.shardBy !== undefined) {
    const columns = table.columns
      .filter((column) => column.since <= version)
      .map((column) => `${column.name} ${withoutCodec(column)}`);
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${database}.${assertIdentifier(name, "table")}${onCluster(topology)} (\n      ` +
        `${columns.join(",\n      ")}\n    )\n` +
        `    ENGINE = Distributed('${topology.cluster}', '${database}', '${stored}', ${table.shardBy})`,
    );
  }
  return statements;
}

/** `ALTER TABLE … ADD COLUMN` for the columns migration `version` added: the stored table and,
 *  on a cluster, its Distributed table. */
export function addColumnsStatements(
  topology: EventsTopology,
  table: EventsTable,
  database: string,
  version: number,
): string[] {
  if (topology.kind === "single") return [addColumnsStatement(table, database, version)];
  return [
    addColumnsStatement(
      table,
      database,
      version,
      storageName(topology, table.name, table.shardBy !== undefined),
      onCluster(topology),
    ),
    ...distributedColumnsStatements(topology, table, database, version),
  ];
}

/** The projections migration `version` added, on the table that stores the rows (a cluster's
 *  local tables; a Distributed table stores nothing to project). */
export function projectionStatements(
  topology: EventsTopology,
  table: EventsTable,
  database: string,
  version: number,
): string[] {
  return addProjectionsStatements(
    table,
    database,
    version,
    storageName(topology, table.name, table.shardBy !== undefined),
    onCluster(topology),
  );
}

/** The Distributed table's share of a migration's added columns (none for an unsharded table). */
export function distributedColumnsStatements(
  topology: EventsTopology,
  table: EventsTable,
  database: string,
  version: number,
): string[] {
  if (topology.kind === "single" || table.shardBy === undefined) return [];
  if (!table.columns.some((column) => column.since === version)) return [];
  return [addColumnsStatement(table, database, version, table.name, onCluster(topology), withoutCodec)];
}

/** The view that feeds `rollup` from every insert into api_requests (or, for a rollup fed from a
 *  finer one, into that rollup), as events migration `version` had it: on a cluster, each node's
 *  view reads its local source and writes its local rollup, so each shard rolls up its own rows
 *  and a read through the Distributed rollup merges the shards' states. */
export function createViewStatement(
  topology: EventsTopology,
  rollup: Rollup,
  database: string,
  source: string,
  version: number,
): string {
  const from = `${database}.${storageName(topology, source)}`;
  const select =
    rollup.fedFrom === undefined
      ? rollupSelect(rollup, from, "", ROLLUP_SOURCE.live, version)
      : coarsenSelect(rollup, from);
  return (
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.${rollup.view}${onCluster(topology)} ` +
    `TO ${database}.${storageName(topology, rollup.table.name)} AS ${select}`
  );
}

/** `DROP TABLE IF EXISTS` for a table and, on a cluster, the local table behind it. */
export function dropTableStatements(
  topology: EventsTopology,
  database: string,
  name: string,
  options: { readonly sharded?: boolean; readonly sync?: boolean } = {},
): string[] {
  const sync = options.sync === true ? " SYNC" : "";
  const drop = (table: string) => `DROP TABLE IF EXISTS ${database}.${table}${onCluster(topology)}${sync}`;
  const sharded = options.sharded ?? true;
  if (topology.kind === "single" || !sharded) return [drop(name)];
  return [drop(name), drop(storageName(topology, name))];
}

/** A snapshot of api_requests as migration `version` had it, created empty: on one node `AS`
 *  the table (its text unchanged since migration 6); on a cluster from the declaration, since
 *  `AS` would copy the Replicated engine's path and make the snapshot a replica of the table. */
export function snapshotStatements(
  topology: EventsTopology,
  source: EventsTable,
  database: string,
  version: number,
  snapshot: string,
): string[] {
  const create =
    topology.kind === "single"
      ? [`CREATE TABLE IF NOT EXISTS ${database}.${snapshot} AS ${database}.${source.name}`]
      : createTableStatements(topology, source, database, version, snapshot);
  return [
    ...create,
    // Emptied first, so a re-run after a crash is idempotent (REPLACE PARTITION refuses an
    // empty source). Parts are hard links: no copy, and the disk they hold is freed when the
    // backfill drops the snapshot.
    `TRUNCATE TABLE IF EXISTS ${database}.${storageName(topology, snapshot)}${onCluster(topology)}`,
  ];
}
