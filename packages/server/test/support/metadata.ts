// The metadata backends a suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is
// set (CI sets it and must not silently skip it). Each PostgreSQL test gets its own schema.
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface MetadataBackend {
  readonly name: "sqlite" | "postgres";
  readonly databaseUrl?: string;
}

export function metadataBackends(): MetadataBackend[] {
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.CI === "true" && (url === undefined || url === "")) {
    throw new Error("CI=true requires TEST_DATABASE_URL: the PostgreSQL suite must run in CI");
  }
  return url === undefined || url === ""
    ? [{ name: "sqlite" }]
    : [{ name: "sqlite" }, { name: "postgres", databaseUrl: url }];
}

export interface PostgresSchema {
  readonly schema: string;
  drop(): Promise<void>;
}

/** Creates an empty schema for one test; drop() removes it with everything inside. */
export async function createPostgresSchema(databaseUrl: string): Promise<PostgresSchema> {
  const schema = `t_${randomBytes(6).toString("hex")}`;
  await withClient(databaseUrl, (client) => client.query(`CREATE SCHEMA ${schema}`));
  return createPostgresSchemaHandle(databaseUrl, schema);
}

/** A handle on an existing test schema (e.g. one a restarted context reuses). */
export function createPostgresSchemaHandle(databaseUrl: string, schema: string): PostgresSchema {
  return {
    schema,
    drop: async () => {
      await withClient(databaseUrl, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    },
  };
}

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
