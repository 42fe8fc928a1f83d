// The tenant-first start of every events read: the project (never optional), then its apps, the
// time bounds and the environment, in the order the sort key (project_id, timestamp) prunes on;
// and table names qualified from their declarations, never written as literals.
import { assertIdentifier } from "../dialect.js";
import type { SqlParams } from "./sql.js";

export interface TenantScope {
  /** Every read is confined to one project. */
  readonly projectId: string;
  /** Apps of that project; undefined means all of them, an empty list matches nothing. */
  readonly appIds?: readonly string[] | undefined;
  /** Inclusive bounds, epoch milliseconds. */
  readonly since?: number | undefined;
  readonly until?: number | undefined;
  readonly environment?: string | undefined;
}

/** The scope's conditions, project first, every value bound into `params`. */
export function tenantConditions(scope: TenantScope, params: SqlParams): string[] {
  const where = [`project_id = ${params.bind(scope.projectId, "String")}`];
  if (scope.appIds !== undefined) {
    where.push(
      scope.appIds.length === 1
        ? `app_id = ${params.bind(scope.appIds[0], "String")}`
        : `app_id IN ${params.bind(scope.appIds, "Array(String)")}`,
    );
  }
  if (scope.since !== undefined) where.push(`timestamp >= ${params.instant(scope.since)}`);
  if (scope.until !== undefined) where.push(`timestamp <= ${params.instant(scope.until)}`);
  if (scope.environment !== undefined)
    where.push(`environment = ${params.bind(scope.environment, "String")}`);
  return where;
}

/** `database.table` for a declared table (or a rollup's, or the backfill snapshot's name). */
export function qualified(
  events: { readonly database: string },
  table: { readonly name: string } | string,
): string {
  const name = typeof table === "string" ? table : table.name;
  return `${assertIdentifier(events.database, "database")}.${assertIdentifier(name, "table")}`;
}
