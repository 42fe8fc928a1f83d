// The metadata store: a Kysely handle on SQLite or PostgreSQL, its migration chain, a health
// ping and one close(). Repositories receive `db`; nothing above this folder sees the engine.

import type { Kysely } from "kysely";
import { type MigrationResultSet, Migrator, sql } from "kysely";
import { connectMetadata, type MetadataConnectionOptions, type MetadataEngine } from "./dialect.js";
import { metadataMigrations } from "./migrations/index.js";
import type { MetadataTables } from "./schema.js";

export interface MetadataStore {
  readonly engine: MetadataEngine;
  readonly db: Kysely<MetadataTables>;
  /** Applies pending migrations; returns the names applied now. */
  migrate(): Promise<string[]>;
  /** Resolves when the engine answers within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function openMetadataStore(options: MetadataConnectionOptions): MetadataStore {
  const { engine, db } = connectMetadata(options);
  let closed = false;
  return {
    engine,
    db,
    async migrate() {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => metadataMigrations },
        ...(options.postgresSchema === undefined ? {} : { migrationTableSchema: options.postgresSchema }),
      });
      for (let attempt = 1; ; attempt++) {
        const result = await migrator.migrateToLatest();
        if (!isIntrospectionRace(result) || attempt === MIGRATE_ATTEMPTS) return appliedNames(result);
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    },
    async ping(timeoutMs = 2000) {
      await withTimeout(sql`select 1`.execute(db), timeoutMs, "metadata store did not answer");
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

const MIGRATE_ATTEMPTS = 5;
/** undefined_schema, undefined_table, undefined_column: an object vanished mid-query. */
const VANISHED_OBJECT_CODES = new Set(["3F000", "42P01", "42703"]);

/**
 * Before applying anything, Kysely's migrator introspects every table of every schema, calling
 * functions that look schemas and tables up by name. Another session dropping an unrelated
 * schema at that moment fails the introspection; nothing was applied, so it is safe to retry.
 */
function isIntrospectionRace({ error, results }: MigrationResultSet): boolean {
  if (results !== undefined || typeof error !== "object" || error === null) return false;
  return VANISHED_OBJECT_CODES.has(String((error as { code?: unknown }).code));
}

function appliedNames({ error, results }: MigrationResultSet): string[] {
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === "Error")?.migrationName;
    throw new Error(`metadata migration ${failed ?? "(unknown)"} failed`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
