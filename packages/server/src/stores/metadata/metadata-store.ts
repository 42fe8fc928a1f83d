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
      return appliedNames(await migrator.migrateToLatest());
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
