// Idempotency-Key records of ingest (migration 0004): one row per (project, route, key) holding
// the answer given, claimed with an insert that only one request can win. Conditional updates
// (by owner, by creation time) keep concurrent requests and instances from overwriting each other.
import type { Kysely } from "kysely";
import type { MetadataTables } from "../schema.js";

export interface IngestIdempotencyTable {
  project_id: string;
  kind: string;
  idempotency_key: string;
  body_hash: string;
  state: "pending" | "done";
  owner: string;
  answer: string;
  probe: string | null;
  created_at: string;
  expires_at: string;
}

export type IdempotencyRow = IngestIdempotencyTable;

/** Which record: a project's key on one ingest route. */
export interface IdempotencyScope {
  readonly projectId: string;
  readonly kind: string;
  readonly key: string;
}

export interface IngestIdempotencyRepo {
  find(scope: IdempotencyScope): Promise<IdempotencyRow | undefined>;
  /** Inserts the row unless its key exists; true when this call inserted it. */
  insertIfAbsent(row: IdempotencyRow): Promise<boolean>;
  /** pending -> done, if `owner` still holds the row. */
  complete(scope: IdempotencyScope, owner: string): Promise<boolean>;
  /** Deletes the pending row `owner` holds: its batch was not stored, a retry starts afresh. */
  release(scope: IdempotencyScope, owner: string): Promise<void>;
  /** Hands a pending row from `fromOwner` to a new holder with a new answer (compare-and-set). */
  takeOver(
    scope: IdempotencyScope,
    fromOwner: string,
    next: Pick<IdempotencyRow, "owner" | "answer" | "probe" | "created_at" | "expires_at">,
  ): Promise<boolean>;
  /** Deletes the row if it is still the one created at `createdAt` (an expired record). */
  deleteIfCreatedAt(scope: IdempotencyScope, createdAt: string): Promise<void>;
  /** Deletes records whose window ended before `now`; returns how many went. */
  deleteExpired(now: string): Promise<number>;
}

export function createIngestIdempotencyRepo(metadata: Kysely<MetadataTables>): IngestIdempotencyRepo {
  const db = metadata.withTables<{ ingest_idempotency_keys: IngestIdempotencyTable }>();
  const table = "ingest_idempotency_keys" as const;
  const where = (scope: IdempotencyScope) =>
    db
      .updateTable(table)
      .where("project_id", "=", scope.projectId)
      .where("kind", "=", scope.kind)
      .where("idempotency_key", "=", scope.key);

  return {
    async find(scope) {
      return db
        .selectFrom(table)
        .selectAll()
        .where("project_id", "=", scope.projectId)
        .where("kind", "=", scope.kind)
        .where("idempotency_key", "=", scope.key)
        .executeTakeFirst();
    },
    async insertIfAbsent(row) {
      const inserted = await db
        .insertInto(table)
        .values(row)
        .onConflict((oc) => oc.columns(["project_id", "kind", "idempotency_key"]).doNothing())
        .returning("owner")
        .executeTakeFirst();
      return inserted !== undefined;
    },
    async complete(scope, owner) {
      const result = await where(scope)
        .set({ state: "done" })
        .where("owner", "=", owner)
        .where("state", "=", "pending")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async release(scope, owner) {
      await db
        .deleteFrom(table)
        .where("project_id", "=", scope.projectId)
        .where("kind", "=", scope.kind)
        .where("idempotency_key", "=", scope.key)
        .where("owner", "=", owner)
        .where("state", "=", "pending")
        .execute();
    },
    async takeOver(scope, fromOwner, next) {
      const result = await where(scope)
        .set(next)
        .where("owner", "=", fromOwner)
        .where("state", "=", "pending")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async deleteIfCreatedAt(scope, createdAt) {
      await db
        .deleteFrom(table)
        .where("project_id", "=", scope.projectId)
        .where("kind", "=", scope.kind)
        .where("idempotency_key", "=", scope.key)
        .where("created_at", "=", createdAt)
        .execute();
    },
    async deleteExpired(now) {
      const result = await db.deleteFrom(table).where("expires_at", "<", now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
