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
import type { KeyAuthenticator } from "./key-authenticator.js";
import { generateKey } from "./key-format.js";

/** Where a key lives: a project, optionally narrowed to one of its apps. */
export interface KeyScope {
  readonly projectId: string;
  readonly appId: string | null;
}

export interface ApiKeysServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly authenticator: KeyAuthenticator;
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

export function createApiKeysService({ db, clock, authenticator }: ApiKeysServiceDeps) {
  const keys = createApiKeysRepo(db);

  return {
    async createKey(scope: KeyScope, body: CreateApiKeyBody): Promise<CreatedApiKey> {
      const name = body.name.trim();
      if (name === "") {
        throw new AppError("validation_error", "The key name must not be blank.", {
          errors: [{ pointer: "/name", message: "must not be blank" }],
        });
      }
      const created = await db.transaction().execute(async (trx) => {
        const repo = createApiKeysRepo(trx);
        if ((await repo.countLive(scope.projectId)) >= RESOURCE_LIMITS.liveKeysPerProject) {
          throw new AppError(
            "limit_reached",
            `A project may have at most ${RESOURCE_LIMITS.liveKeysPerProject} live API keys; revoke one first.`,
          );
        }
        const secret = generateKey();
        const row = await repo.insert({
          id: newId(),
          project_id: scope.projectId,
          app_id: scope.appId,
          name,
          prefix: secret.prefix,
          key_hash: secret.hash,
          created_at: toIsoTimestamp(clock.now()),
          last_used_at: null,
          revoked_at: null,
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

    async listKeys(scope: KeyScope): Promise<ApiKeyListItem[]> {
      await authenticator.flushUsage();
      return (await keys.list(scope.projectId, scope.appId)).map(toListItem);
    },

    /** Revokes a key of the scope; revoking an already revoked key is harmless. */
    async revokeKey(scope: KeyScope, keyId: string): Promise<void> {
      const row = await keys.find(scope.projectId, scope.appId, keyId);
      if (row === undefined) throw new AppError("not_found", `API key ${keyId} not found.`);
      await keys.revoke(row.id, toIsoTimestamp(clock.now()));
      authenticator.forgetKeys([row.key_hash]);
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
