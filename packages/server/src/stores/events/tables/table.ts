// How an events table is declared once: its columns (name, engine type, the migration that added
// it), indexes, sort key and default retention. Migrations render their DDL from a declaration,
// record kinds build rows in its column order, and queries name its columns through it.
import { assertIdentifier } from "../dialect.js";

export interface EventsColumn<Name extends string = string> {
  readonly name: Name;
  /** Engine type with codec, e.g. `String CODEC(ZSTD(1))`. */
  readonly type: string;
  /** The events migration that added the column; columns of later migrations are appended. */
  readonly since: number;
}

export interface EventsTable<Name extends string = string> {
  readonly name: string;
  readonly columns: readonly EventsColumn<Name>[];
  /** Column names in declaration order: the order of every serialised row. */
  readonly columnNames: readonly Name[];
  /** Skip indexes, as `INDEX …` clauses (added with the table's first migration). */
  readonly indexes: readonly string[];
  /** Projections: the same rows in another order, which ClickHouse reads instead of the table
   *  when that reads fewer granules. */
  readonly projections?: readonly EventsProjection<Name>[];
  readonly orderBy: readonly Name[];
  /** Days the TTL is created with; start-up aligns it with the configured retention. */
  readonly defaultRetentionDays: number;
  /** Table engine (default `MergeTree`); rollups use `AggregatingMergeTree`. */
  readonly engine?: string;
  /** PARTITION BY expression, when the table has one. */
  readonly partitionBy?: string;
  /** The DateTime column the TTL counts from (default `timestamp`). */
  readonly ttlColumn?: Name;
  /** The time-partitioned layout the table has from migration `since` on (docs/adr/0023):
   *  tables created by earlier migrations are rebuilt into it by that migration. */
  readonly layout?: TableLayout<Name>;
  /** The Distributed table's sharding key in cluster mode (docs/adr/0024-clickhouse-clusters.md).
   *  Absent: a small table every node holds whole (backfill progress), not sharded. */
  readonly shardBy?: string;
}

/** A projection of some of a table's columns, sorted by other keys (added by migration `since`). */
export interface EventsProjection<Name extends string = string> {
  readonly name: string;
  readonly since: number;
  readonly columns: readonly Name[];
  readonly orderBy: readonly Name[];
}

/** A projection's clause, as CREATE TABLE lists it and ALTER TABLE … ADD PROJECTION takes it. */
export function projectionClause(projection: EventsProjection, ifNotExists = false): string {
  return (
    `PROJECTION ${ifNotExists ? "IF NOT EXISTS " : ""}${assertIdentifier(projection.name, "projection")} ` +
    `(SELECT ${projection.columns.join(", ")} ORDER BY (${projection.orderBy.join(", ")}))`
  );
}

/** A table's partitions and per-row retention (docs/adr/0023-partitions-and-retention.md). */
export interface TableLayout<Name extends string = string> {
  readonly since: number;
  readonly partitionBy: string;
  /** Days each row is kept, written at insert from its project's retention; 0 (rows stored
   *  before per-project retention) means the table's server-wide days. The raw tables have it
   *  in the partition key, so a part's rows all expire together and expiry drops whole parts;
   *  the rollups do not (docs/adr/0023). */
  readonly retentionColumn?: Name;
}

/** A declaration with its column names derived, so nothing lists them twice. */
export function defineEventsTable<const Name extends string>(
  table: Omit<EventsTable<Name>, "columnNames">,
): EventsTable<Name> {
  const names = table.columns.map((column) => column.name);
  if (new Set(names).size !== names.length) throw new Error(`${table.name} declares a column twice`);
  return Object.freeze({ ...table, columnNames: Object.freeze(names) });
}

/** A typed subset of a table's column names, for the SELECT list of a query. */
export function pickColumns<Name extends string, const Picked extends Name>(
  _table: EventsTable<Name>,
  names: readonly Picked[],
): readonly Picked[] {
  return names;
}

/** The table's layout as migration `version` created it (none before its layout's migration). */
export function layoutAt(table: EventsTable, version: number): TableLayout | undefined {
  return table.layout !== undefined && version >= table.layout.since ? table.layout : undefined;
}

/** The TTL expression of `table` at `version`, `days` being its server-wide retention. */
export function ttlExpression(table: EventsTable, days: number, version = Number.POSITIVE_INFINITY): string {
  const column = layoutAt(table, version)?.retentionColumn;
  const kept = column === undefined ? String(days) : `if(${column} = 0, ${days}, ${column})`;
  return `toDateTime(${table.ttlColumn ?? "timestamp"}) + toIntervalDay(${kept})`;
}

/** Where a table's statement puts it: ` ON CLUSTER <name>` or nothing, and its engine clause
 *  (a cluster's tables are Replicated; docs/adr/0024-clickhouse-clusters.md). */
export interface TablePlacement {
  readonly onCluster: string;
  readonly engine: string;
}

/** `CREATE TABLE IF NOT EXISTS` with the columns (and layout) that existed at `version`;
 *  `name` overrides the table's own (the rebuild of migration 9 creates a copy beside it). */
export function createTableStatement(
  table: EventsTable,
  database: string,
  version: number,
  name: string = table.name,
  placement: TablePlacement = { onCluster: "", engine: table.engine ?? "MergeTree" },
): string {
  const columns = table.columns.filter((column) => column.since <= version);
  const projections = (table.projections ?? []).filter((projection) => projection.since <= version);
  const lines = [
    ...columns.map((column) => `${column.name} ${column.type}`),
    ...table.indexes,
    ...projections.map((projection) => projectionClause(projection)),
  ];
  const partitionBy = layoutAt(table, version)?.partitionBy ?? table.partitionBy;
  return (
    `CREATE TABLE IF NOT EXISTS ${assertIdentifier(database, "database")}.${assertIdentifier(name, "table")}${placement.onCluster} (\n      ` +
    `${lines.join(",\n      ")}\n    )\n` +
    `    ENGINE = ${placement.engine}\n` +
    (partitionBy === undefined ? "" : `    PARTITION BY ${partitionBy}\n`) +
    `    ORDER BY (${table.orderBy.join(", ")})\n` +
    `    TTL ${ttlExpression(table, table.defaultRetentionDays, version)}\n` +
    // Each insert is durable when it is answered (docs/adr/0005-ingest-durability.md); expiry
    // drops whole parts, never rewrites one (docs/adr/0023-partitions-and-retention.md).
    "    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, " +
    "ttl_only_drop_parts = 1"
  );
}

/**
 * `ALTER TABLE … ADD PROJECTION IF NOT EXISTS` for the projections migration `version` added,
 * each followed by `MATERIALIZE PROJECTION`: a mutation ClickHouse runs in the background, part
 * by part, and resumes after a restart; reads use the projection where a part has it and the
 * table's own order where it does not yet.
 */
export function addProjectionsStatements(
  table: EventsTable,
  database: string,
  version: number,
  name: string = table.name,
  onCluster = "",
): string[] {
  const added = (table.projections ?? []).filter((projection) => projection.since === version);
  if (added.length === 0) throw new Error(`${table.name} has no projection added by migration ${version}`);
  const alter = `ALTER TABLE ${assertIdentifier(database, "database")}.${name}${onCluster}`;
  return added.flatMap((projection) => [
    `${alter} ADD ${projectionClause(projection, true)}`,
    `${alter} MATERIALIZE PROJECTION ${projection.name}`,
  ]);
}

/** `ALTER TABLE … ADD COLUMN IF NOT EXISTS` for the columns migration `version` added. */
export function addColumnsStatement(
  table: EventsTable,
  database: string,
  version: number,
  name: string = table.name,
  onCluster = "",
  typeOf: (column: EventsColumn) => string = (column) => column.type,
): string {
  const added = table.columns.filter((column) => column.since === version);
  if (added.length === 0) throw new Error(`${table.name} has no column added by migration ${version}`);
  return (
    `ALTER TABLE ${assertIdentifier(database, "database")}.${name}${onCluster} ` +
    added.map((column) => `ADD COLUMN IF NOT EXISTS ${column.name} ${typeOf(column)}`).join(", ")
  );
}
