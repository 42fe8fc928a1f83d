// API keys of a project or of one app: creation (the secret is returned once), listing with
// revoked keys kept for the record, and revocation that takes effect for ingest at once.
import {
  type ApiKeyListItem,
  type CreateApiKeyBody,
  type CreatedApiKey,
  RESOURCE_LIMITS,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { type ApiKeyRow, createApiKeysRepo } from "../../stores/metadata/repos/api-keys.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { isAppScope, type ProjectScope, reauthorize } from "../access/index.js";
import type { AuditTrail } from "../audit/index.js";
import type { KeyAuthenticator } from "./key-authenticator.js";
import { generateKey } from "./key-format.js";

export interface ApiKeysServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly authenticator: KeyAuthenticator;
}

/** Where a key lives: the project of the scope, narrowed to the app for an app scope. */
function keyHome(scope: ProjectScope): { projectId: string; appId: string | null } {
  return { projectId: scope.project.id, appId: isAppScope(scope) ? scope.app.id : null };
}

function toListItem(row: ApiKeyRow): ApiKeyListItem {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    is_revoked: row.revoked_at !== null,
    last_used_at: row.last_used_at,
    created_at: row.created_at,
  };
}

export function createApiKeysService({ db, clock, audit, authenticator }: ApiKeysServiceDeps) {
  const keys = createApiKeysRepo(db);

  return {
    /** A key of the project, or of the app for an app scope (it may ingest that app only). */
    async createKey(scope: ProjectScope, body: CreateApiKeyBody): Promise<CreatedApiKey> {
      const home = keyHome(scope);
      const name = body.name.trim();
      if (name === "") {
        throw new AppError("validation_error", "The key name must not be blank.", {
          errors: [{ pointer: "/name", message: "must not be blank" }],
        });
      }
      const created = await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "keys:manage");
        const repo = createApiKeysRepo(trx);
        if ((await repo.countLive(home.projectId)) >= RESOURCE_LIMITS.liveKeysPerProject) {
          throw new AppError(
            "limit_reached",
            `A project may have at most ${RESOURCE_LIMITS.liveKeysPerProject} live API keys; revoke one first.`,
          );
        }
        const secret = generateKey();
        const row = await repo.insert({
          id: newId(),
          project_id: home.projectId,
          app_id: home.appId,
          name,
          prefix: secret.prefix,
          key_hash: secret.hash,
          created_at: toIsoTimestamp(clock.now()),
          last_used_at: null,
          revoked_at: null,
        });
        await audit.record(trx, {
          projectId: home.projectId,
          actorId: scope.userId,
          action: "api_key.created",
          target: { type: "api_key", id: row.id, label: row.name },
          details: { prefix: row.prefix, ...(isAppScope(scope) ? { app: scope.app.slug } : {}) },
        });
        return { row, key: secret.key };
      });
      return {
        id: created.row.id,
        name: created.row.name,
        prefix: created.row.prefix,
        key: created.key,
        created_at: created.row.created_at,
      };
    },

    async listKeys(scope: ProjectScope): Promise<ApiKeyListItem[]> {
      await authenticator.flushUsage();
      const home = keyHome(scope);
      return (await keys.list(home.projectId, home.appId)).map(toListItem);
    },

    /** Revokes a key of the scope; revoking an already revoked key is harmless. */
    async revokeKey(scope: ProjectScope, keyId: string): Promise<void> {
      const home = keyHome(scope);
      const row = await keys.find(home.projectId, home.appId, keyId);
      if (row === undefined) throw new AppError("not_found", `API key ${keyId} not found.`);
      if (row.revoked_at !== null) return;
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "keys:manage");
        await createApiKeysRepo(trx).revoke(row.id, toIsoTimestamp(clock.now()));
        await audit.record(trx, {
          projectId: home.projectId,
          actorId: scope.userId,
          action: "api_key.revoked",
          target: { type: "api_key", id: row.id, label: row.name },
          details: { prefix: row.prefix },
        });
      });
      authenticator.forgetKeys([row.key_hash]);
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
