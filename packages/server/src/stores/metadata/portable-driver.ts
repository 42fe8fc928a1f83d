// The metadata driver made to behave alike on SQLite and PostgreSQL where the engines disagree,
// for every repository at once (it wraps the dialect's driver, so none has to remember it):
// - unique-constraint violations become one error type, MetadataConflictError (answered 409).
//   Services check uniqueness before writing, but two requests (or two instances on one
//   PostgreSQL) can pass the check together and only the index decides: this is the safety net
//   that keeps such a race from answering 500;
// - U+0000 in a bound string becomes U+FFFD. PostgreSQL text cannot hold NUL and refuses the
//   whole statement (a lookup by a slug with `%00` in the URL failed with 500); SQLite can, but
//   both store the same thing this way, and a NUL is never meaningful in a name or a key.
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from "kysely";

/** A write another row already holds the unique key of. `columns` are ours, never values. */
export class MetadataConflictError extends Error {
  constructor(readonly columns: readonly string[]) {
    super(
      columns.length === 0
        ? "unique constraint violated"
        : `unique constraint violated on (${columns.join(", ")})`,
    );
    this.name = "MetadataConflictError";
  }
}

/** The dialect with the adaptations above applied to every query. */
export function portableDialect(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new PortableDriver(dialect.createDriver()),
  };
}

/** The MetadataConflictError a driver error stands for, or the error itself. */
export function toConflict(error: unknown): unknown {
  if (typeof error !== "object" || error === null) return error;
  const { code, detail, message } = error as { code?: unknown; detail?: unknown; message?: unknown };
  // PostgreSQL unique_violation; its detail reads `Key (app_id, name)=(…) already exists.`
  if (code === "23505") {
    const columns = typeof detail === "string" ? /^Key \(([^)]*)\)=/.exec(detail)?.[1] : undefined;
    return new MetadataConflictError(splitColumns(columns));
  }
  // better-sqlite3: `UNIQUE constraint failed: environments.app_id, environments.name`
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    const columns = typeof message === "string" ? /constraint failed: (.*)$/.exec(message)?.[1] : undefined;
    return new MetadataConflictError(
      splitColumns(columns).map((column) => column.split(".").pop() ?? column),
    );
  }
  return error;
}

function splitColumns(list: string | undefined): string[] {
  if (list === undefined) return [];
  return list
    .split(",")
    .map((column) => column.trim())
    .filter((column) => /^[A-Za-z_][A-Za-z0-9_.]*$/.test(column));
}

/** A query whose bound strings hold no NUL (U+FFFD in its place); the same query if none does. */
export function withoutNul(query: CompiledQuery): CompiledQuery {
  if (!query.parameters.some((value) => typeof value === "string" && value.includes("\u0000"))) return query;
  return {
    ...query,
    parameters: query.parameters.map((value) =>
      typeof value === "string" ? value.replaceAll("\u0000", "\ufffd") : value,
    ),
  };
}

class PortableDriver implements Driver {
  /** The inner driver's own connection behind each connection handed out. */
  readonly #inner = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(private readonly driver: Driver) {
    if (driver.savepoint !== undefined) {
      this.savepoint = (connection, name, compile) =>
        driver.savepoint!(this.#original(connection), name, compile);
    }
    if (driver.rollbackToSavepoint !== undefined) {
      this.rollbackToSavepoint = (connection, name, compile) =>
        driver.rollbackToSavepoint!(this.#original(connection), name, compile);
    }
    if (driver.releaseSavepoint !== undefined) {
      this.releaseSavepoint = (connection, name, compile) =>
        driver.releaseSavepoint!(this.#original(connection), name, compile);
    }
  }

  savepoint?: Driver["savepoint"];
  rollbackToSavepoint?: Driver["rollbackToSavepoint"];
  releaseSavepoint?: Driver["releaseSavepoint"];

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.driver.acquireConnection();
    const mapped: DatabaseConnection = {
      async executeQuery<R>(
        query: Parameters<DatabaseConnection["executeQuery"]>[0],
      ): Promise<QueryResult<R>> {
        try {
          return await connection.executeQuery<R>(withoutNul(query));
        } catch (error) {
          throw toConflict(error);
        }
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(withoutNul(query), chunkSize),
    };
    this.#inner.set(mapped, connection);
    return mapped;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.driver.beginTransaction(this.#original(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.commitTransaction(this.#original(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.rollbackTransaction(this.#original(connection));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.driver.releaseConnection(this.#original(connection));
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }

  #original(connection: DatabaseConnection): DatabaseConnection {
    return this.#inner.get(connection) ?? connection;
  }
}
