// Opens Kysely on the configured engine: SQLite (better-sqlite3) by default, PostgreSQL when
// a postgres:// URL is given. The only place that knows which engine is in use.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { type Dialect, Kysely, type LogEvent, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { portableDialect } from "./portable-driver.js";
import type { MetadataTables } from "./schema.js";

export type MetadataEngine = "sqlite" | "postgres";

export interface MetadataConnectionOptions {
  /** postgres:// URL; unset means SQLite at `sqlitePath`. */
  readonly databaseUrl?: string | undefined;
  readonly sqlitePath: string;
  /** PostgreSQL schema to use instead of `public` (tests isolate themselves this way). */
  readonly postgresSchema?: string | undefined;
  /** Pool size for PostgreSQL. */
  readonly poolSize?: number;
  /** Sees the SQL of every query run (tests use it to count queries per request). */
  readonly onQuery?: ((sql: string) => void) | undefined;
}

export interface MetadataConnection {
  readonly engine: MetadataEngine;
  readonly db: Kysely<MetadataTables>;
}

export function connectMetadata(options: MetadataConnectionOptions): MetadataConnection {
  const onQuery = options.onQuery;
  const log = onQuery === undefined ? undefined : (event: LogEvent) => onQuery(event.query.sql);
  // Both dialects behave alike where the engines differ (portable-driver.ts).
  if (options.databaseUrl !== undefined) {
    return {
      engine: "postgres",
      db: new Kysely<MetadataTables>({ dialect: portableDialect(postgresDialect(options)), log }),
    };
  }
  return {
    engine: "sqlite",
    db: new Kysely<MetadataTables>({ dialect: portableDialect(sqliteDialect(options.sqlitePath)), log }),
  };
}

function sqliteDialect(path: string): Dialect {
  mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  // WAL lets readers run beside the writer; FULL makes every commit survive a power cut,
  // not only a process kill. busy_timeout covers a second process (e.g. `sightline migrate`).
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = FULL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  return new SqliteDialect({ database });
}

function postgresDialect(options: MetadataConnectionOptions): Dialect {
  const schema = options.postgresSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  }
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  return new PostgresDialect({ pool });
}
