// The contract tables: each app and environment's learning state, its document versions, the
// changes between them, the declared document per app, and the inference cursor.
import type { Insertable, Kysely, Selectable } from "kysely";
import type {
  ApiContractChangesTable,
  ApiContractsTable,
  ApiContractVersionsTable,
  ApiDeclaredDocumentsTable,
  MetadataTables,
} from "../schema.js";

export type ApiContractRow = Selectable<ApiContractsTable>;
export type ApiContractVersionRow = Selectable<ApiContractVersionsTable>;
export type ApiContractChangeRow = Selectable<ApiContractChangesTable>;
export type ApiDeclaredDocumentRow = Selectable<ApiDeclaredDocumentsTable>;
export type ApiContractVersionSummary = Omit<ApiContractVersionRow, "document">;

export interface ChangeFilter {
  readonly projectId: string;
  readonly appId?: string;
  readonly environment?: string;
  readonly breaking?: boolean;
}

/** A live app of a live project, as inference needs it. */
export interface LiveApp {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly project_id: string;
  readonly project_slug: string;
  readonly project_name: string;
}

export function createApiContractsRepo(db: Kysely<MetadataTables>) {
  return {
    async liveApps(): Promise<LiveApp[]> {
      return db
        .selectFrom("apps")
        .innerJoin("projects", "projects.id", "apps.project_id")
        .select([
          "apps.id as id",
          "apps.slug as slug",
          "apps.name as name",
          "apps.project_id as project_id",
          "projects.slug as project_slug",
          "projects.name as project_name",
        ])
        .where("apps.deleted_at", "is", null)
        .where("projects.deleted_at", "is", null)
        .orderBy("apps.project_id")
        .orderBy("apps.id")
        .execute();
    },

    async readCursor(name: string): Promise<string | undefined> {
      const row = await db
        .selectFrom("api_contract_cursor")
        .select("read_until")
        .where("name", "=", name)
        .executeTakeFirst();
      return row?.read_until;
    },

    async writeCursor(name: string, readUntil: string): Promise<void> {
      await db
        .insertInto("api_contract_cursor")
        .values({ name, read_until: readUntil })
        .onConflict((oc) => oc.column("name").doUpdateSet({ read_until: readUntil }))
        .execute();
    },

    async findState(appId: string, environment: string): Promise<ApiContractRow | undefined> {
      return db
        .selectFrom("api_contracts")
        .selectAll()
        .where("app_id", "=", appId)
        .where("environment", "=", environment)
        .executeTakeFirst();
    },

    async listStates(projectId: string): Promise<Omit<ApiContractRow, "state">[]> {
      return db
        .selectFrom("api_contracts")
        .select(["id", "project_id", "app_id", "environment", "read_until", "latest_version", "updated_at"])
        .where("project_id", "=", projectId)
        .orderBy("app_id")
        .orderBy("environment")
        .execute();
    },

    /**
     * Stores a pass's outcome for one app and environment in one transaction: the new state and
     * cursor, and with a new version its document and changes.
     */
    async savePass(
      state: ApiContractRow,
      version: Insertable<ApiContractVersionsTable> | null,
      changes: readonly Insertable<ApiContractChangesTable>[],
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("api_contracts")
          .values(state)
          .onConflict((oc) =>
            oc.columns(["app_id", "environment"]).doUpdateSet({
              state: state.state,
              read_until: state.read_until,
              latest_version: state.latest_version,
              updated_at: state.updated_at,
            }),
          )
          .execute();
        if (version !== null) await trx.insertInto("api_contract_versions").values(version).execute();
        if (changes.length > 0)
          await trx
            .insertInto("api_contract_changes")
            .values([...changes])
            .execute();
      });
    },

    async findVersion(
      appId: string,
      environment: string,
      version: number,
    ): Promise<ApiContractVersionRow | undefined> {
      return db
        .selectFrom("api_contract_versions")
        .selectAll()
        .where("app_id", "=", appId)
        .where("environment", "=", environment)
        .where("version", "=", version)
        .executeTakeFirst();
    },

    async listVersions(appId: string, environment: string): Promise<ApiContractVersionSummary[]> {
      return db
        .selectFrom("api_contract_versions")
        .select([
          "id",
          "project_id",
          "app_id",
          "environment",
          "version",
          "fingerprint",
          "operations",
          "changes",
          "breaking_changes",
          "created_at",
        ])
        .where("app_id", "=", appId)
        .where("environment", "=", environment)
        .orderBy("version", "desc")
        .execute();
    },

    async pageChanges(
      filter: ChangeFilter,
      { limit, offset }: { limit: number; offset: number },
    ): Promise<{ rows: ApiContractChangeRow[]; total: number }> {
      let query = db.selectFrom("api_contract_changes").where("project_id", "=", filter.projectId);
      if (filter.appId !== undefined) query = query.where("app_id", "=", filter.appId);
      if (filter.environment !== undefined) query = query.where("environment", "=", filter.environment);
      if (filter.breaking !== undefined) query = query.where("breaking", "=", filter.breaking ? 1 : 0);
      const [rows, total] = await Promise.all([
        query.selectAll().orderBy("created_at", "desc").orderBy("id").limit(limit).offset(offset).execute(),
        query.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    async findChange(projectId: string, id: string): Promise<ApiContractChangeRow | undefined> {
      return db
        .selectFrom("api_contract_changes")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("id", "=", id)
        .executeTakeFirst();
    },

    async findDeclared(appId: string): Promise<ApiDeclaredDocumentRow | undefined> {
      return db
        .selectFrom("api_declared_documents")
        .selectAll()
        .where("app_id", "=", appId)
        .executeTakeFirst();
    },

    async saveDeclared(row: ApiDeclaredDocumentRow): Promise<void> {
      const { app_id: _appId, ...rest } = row;
      await db
        .insertInto("api_declared_documents")
        .values(row)
        .onConflict((oc) => oc.column("app_id").doUpdateSet(rest))
        .execute();
    },

    async deleteDeclared(appId: string): Promise<boolean> {
      const result = await db
        .deleteFrom("api_declared_documents")
        .where("app_id", "=", appId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type ApiContractsRepo = ReturnType<typeof createApiContractsRepo>;
