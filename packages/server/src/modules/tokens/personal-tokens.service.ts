// Personal access tokens: creation (the secret is returned once), listing, revocation, and
// verifying a bearer `sl_pat_…` into its owner plus the grant that caps their role. Knows nothing
// of HTTP; the access module applies the grant, this module only states it.
import {
  type CreatedPersonalToken,
  type CreatePersonalTokenBody,
  type Message,
  parseRole,
  PERSONAL_TOKEN_PREFIX,
  type PersonalToken,
  type PersonalTokenList,
  type TokenScope,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import type { AuthContext, PersonalTokenVerifier, TokenCaller } from "../../http/bearer-auth.js";
import { newId } from "../../lib/ids.js";
import { createMembersRepo } from "../../stores/metadata/repos/members.repo.js";
import {
  createPersonalTokensRepo,
  type PersonalTokenRow,
} from "../../stores/metadata/repos/personal-tokens.repo.js";
import type { ProjectRow } from "../../stores/metadata/repos/projects.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { TokenWrite } from "../access/index.js";
import { generateSecret, hashSecret, looksLikeSecret } from "../api-keys/index.js";
import type { AuditTrail } from "../audit/index.js";
import { createTokenBuckets } from "./token-bucket.js";

/** Live tokens one user may hold: enough for every script, few enough to review. */
export const MAX_LIVE_TOKENS_PER_USER = 50;
/** `last_used_at` is written at most this often per token: reads stay free of writes. */
const TOUCH_EVERY_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PersonalTokensService extends PersonalTokenVerifier {
  createToken(caller: AuthContext, body: CreatePersonalTokenBody): Promise<CreatedPersonalToken>;
  listTokens(caller: AuthContext): Promise<PersonalTokenList>;
  revokeToken(caller: AuthContext, tokenId: string): Promise<Message>;
  /** Revokes every token of a user inside the account deletion's transaction. */
  revokeAllWithin(trx: Kysely<MetadataTables>, userId: string): Promise<void>;
  /** Records a token's write in the project's audit log. */
  recordWrite(write: TokenWrite): Promise<void>;
}

export interface PersonalTokensServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly logger: Logger;
  readonly requestsPerMinute: number;
}

const invalid = () =>
  new AppError("authentication_error", "This personal access token is unknown, expired or revoked.");

/** Stored scope text; anything unknown counts as the narrower `read`. */
function scopeOf(row: PersonalTokenRow): TokenScope {
  return row.scope === "read-write" ? "read-write" : "read";
}

function projectIdsOf(row: PersonalTokenRow): string[] | null {
  if (row.project_ids === null) return null;
  // Unreadable text limits the token to nothing rather than to everything.
  try {
    const parsed: unknown = JSON.parse(row.project_ids);
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

export function createPersonalTokensService(deps: PersonalTokensServiceDeps): PersonalTokensService {
  const { db, clock, audit, logger } = deps;
  const repo = createPersonalTokensRepo(db);
  const buckets = createTokenBuckets(deps.requestsPerMinute, clock);
  const touchedAt = new Map<string, number>();
  const nowIso = () => toIsoTimestamp(clock.now());

  /** The live projects of the user by id, for naming a token's projects. */
  async function projectsOf(userId: string): Promise<Map<string, ProjectRow>> {
    const memberships = await createMembersRepo(db).listForUser(userId);
    return new Map(
      memberships
        .filter(({ role }) => parseRole(role) !== undefined)
        .map(({ project }) => [project.id, project]),
    );
  }

  function toToken(row: PersonalTokenRow, projects: Map<string, ProjectRow>): PersonalToken {
    const ids = projectIdsOf(row);
    return {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      scope: scopeOf(row),
      projects:
        ids === null
          ? null
          : ids.flatMap((id) => {
              const project = projects.get(id);
              return project === undefined ? [] : [{ id, slug: project.slug, name: project.name }];
            }),
      created_at: row.created_at,
      expires_at: row.expires_at,
      last_used_at: row.last_used_at,
      is_expired: row.expires_at !== null && row.expires_at <= nowIso(),
    };
  }

  /** Last-used time is written at most once a minute per token: one small update, not per request. */
  async function touch(row: PersonalTokenRow, nowMs: number): Promise<void> {
    const stored = row.last_used_at === null ? 0 : Date.parse(row.last_used_at);
    if (nowMs - Math.max(touchedAt.get(row.id) ?? 0, stored) < TOUCH_EVERY_MS) return;
    if (touchedAt.size >= 10_000) touchedAt.clear();
    touchedAt.set(row.id, nowMs);
    try {
      await repo.touch(row.id, toIsoTimestamp(new Date(nowMs)));
    } catch (error) {
      // Bookkeeping only: the request goes on.
      logger.warn({ err: error, token_prefix: row.prefix }, "could not record a token's last use");
    }
  }

  return {
    async createToken(caller, body) {
      const name = body.name.trim();
      if (name.length === 0) throw new AppError("validation_error", "The token needs a name.");
      let projectIds: string[] | null = null;
      const projects = await projectsOf(caller.userId);
      if (body.project_slugs !== undefined && body.project_slugs !== null) {
        const bySlug = new Map([...projects.values()].map((project) => [project.slug, project]));
        const unknown = body.project_slugs.filter((slug) => !bySlug.has(slug));
        if (unknown.length > 0) {
          throw new AppError("validation_error", `Not projects of yours: ${unknown.join(", ")}.`, {
            extensions: { errors: [{ field: "project_slugs", message: "not a project you belong to" }] },
          });
        }
        projectIds = [...new Set(body.project_slugs.map((slug) => (bySlug.get(slug) as ProjectRow).id))];
      }
      const live = await repo.listUnrevoked(caller.userId);
      if (live.length >= MAX_LIVE_TOKENS_PER_USER) {
        throw new AppError(
          "limit_reached",
          `You have ${MAX_LIVE_TOKENS_PER_USER} tokens; revoke one before creating another.`,
        );
      }
      const now = clock.now();
      const secret = generateSecret(PERSONAL_TOKEN_PREFIX);
      const row = await repo.insert({
        id: newId(),
        user_id: caller.userId,
        name,
        prefix: secret.prefix,
        token_hash: secret.hash,
        scope: body.scope,
        project_ids: projectIds === null ? null : JSON.stringify(projectIds),
        created_at: toIsoTimestamp(now),
        expires_at:
          body.expires_in_days === null
            ? null
            : toIsoTimestamp(new Date(now.getTime() + body.expires_in_days * DAY_MS)),
        last_used_at: null,
        revoked_at: null,
      });
      const { is_expired: _expired, ...token } = toToken(row, projects);
      return { ...token, token: secret.key };
    },

    async listTokens(caller) {
      const projects = await projectsOf(caller.userId);
      return { tokens: (await repo.listUnrevoked(caller.userId)).map((row) => toToken(row, projects)) };
    },

    async revokeToken(caller, tokenId) {
      if (!(await repo.revoke(caller.userId, tokenId, nowIso())))
        throw new AppError("not_found", "No such token of yours.");
      touchedAt.delete(tokenId);
      return { message: "Token revoked." };
    },

    async revokeAllWithin(trx, userId) {
      await createPersonalTokensRepo(trx).revokeAllOf(userId, toIsoTimestamp(clock.now()));
    },

    async verifyPersonalToken(raw): Promise<TokenCaller> {
      if (!looksLikeSecret(raw, PERSONAL_TOKEN_PREFIX)) throw invalid();
      const row = await repo.findByHash(hashSecret(raw));
      const now = clock.now();
      if (row === undefined || row.revoked_at !== null) throw invalid();
      if (row.expires_at !== null && row.expires_at <= toIsoTimestamp(now)) throw invalid();
      const wait = buckets.take(row.id);
      if (wait > 0) {
        throw new AppError(
          "rate_limited",
          `This token made more than ${deps.requestsPerMinute} requests in a minute; retry in ${wait} s.`,
          { headers: { "retry-after": String(wait) } },
        );
      }
      await touch(row, now.getTime());
      return {
        userId: row.user_id,
        email: row.email,
        token: { id: row.id, prefix: row.prefix, scope: scopeOf(row), projectIds: projectIdsOf(row) },
      };
    },

    async recordWrite({ scope, grant, method, route, status }) {
      await audit.record(db, {
        projectId: scope.project.id,
        actorId: scope.userId,
        action: "token.used",
        target: { type: "personal_access_token", id: grant.id, label: grant.prefix },
        details: { method, route, status, via: `token ${grant.prefix}` },
      });
    },
  };
}
