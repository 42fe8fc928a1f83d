// The signed-in user's account: profile, context, picture and deletion. Sessions and the
// password belong to the auth service; this one never touches tokens except to end them all
// when the account goes.
import {
  type Message,
  parseRole,
  permissionsOf,
  tokenScopeAllows,
  type PictureResult,
  type UpdateProfileBody,
  type UserContext,
  type UserProfile,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import type { Caller } from "../../http/bearer-auth.js";
import type { TimeZoneCatalogue, TimeZones } from "../../lib/time-zones.js";
import { displayName, pictureUrlOf } from "../../lib/user-ref.js";
import { createMagicLinksRepo } from "../../stores/metadata/repos/magic-links.repo.js";
import { createMembersRepo } from "../../stores/metadata/repos/members.repo.js";
import { createSessionsRepo } from "../../stores/metadata/repos/sessions.repo.js";
import { createUsersRepo, type UserRow } from "../../stores/metadata/repos/users.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { toStoredPicture } from "./picture.js";

/**
 * Runs inside the deletion's transaction, before the user row is anonymised; a failure rolls
 * the whole deletion back. Other modules plug in here (e.g. soft-deleting the projects the
 * user alone owns). A hook may return a function to run once the transaction has committed
 * (e.g. dropping caches, which must not happen while the old rows are still visible).
 */
export type AccountDeletedHook = (
  userId: string,
  trx: Kysely<MetadataTables>,
) => Promise<(() => void) | undefined | void>;

export interface StoredPicture {
  readonly contentType: string;
  readonly bytes: Buffer;
  readonly updatedAt: string;
}

export interface UsersService {
  getProfile(userId: string): Promise<UserProfile>;
  updateProfile(userId: string, patch: UpdateProfileBody): Promise<UserProfile>;
  /** A token's caller sees only the projects it reaches, with the permissions its scope keeps. */
  getContext(caller: Caller): Promise<UserContext>;
  setPicture(userId: string, upload: Buffer): Promise<PictureResult>;
  removePicture(userId: string): Promise<Message>;
  /** The stored picture of a live user; not_found otherwise. */
  getPicture(userId: string): Promise<StoredPicture>;
  deleteAccount(userId: string): Promise<Message>;
  /** The zones a profile (and a timeseries) may name: known to Intl and to the events engine. */
  timeZones(): Promise<TimeZones>;
}

export interface UsersServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  /** Absolute base of API URLs (`PUBLIC_URL/api/v1`): picture URLs are built on it. */
  readonly apiBaseUrl: string;
  readonly logger: Logger;
  readonly timeZones: TimeZoneCatalogue;
  readonly onAccountDeleted?: readonly AccountDeletedHook[];
}

export function createUsersService(deps: UsersServiceDeps): UsersService {
  const { db, clock, apiBaseUrl, logger } = deps;
  const hooks = deps.onAccountDeleted ?? [];
  const nowIso = () => toIsoTimestamp(clock.now());

  async function liveUser(userId: string): Promise<UserRow> {
    const user = await createUsersRepo(db).findLiveById(userId);
    // The bearer check found the user a moment ago; only a concurrent deletion lands here.
    if (user === undefined) throw new AppError("authentication_error", "This account no longer exists.");
    return user;
  }

  const pictureUrl = (user: UserRow) => pictureUrlOf(apiBaseUrl, user);

  function toProfile(user: UserRow): UserProfile {
    return {
      id: user.id,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      display_name: displayName(user),
      picture: pictureUrl(user),
      email_verified: user.email_verified_at !== null,
      has_password: user.password_hash !== null,
      timezone: user.timezone,
      created_at: user.created_at,
      last_login_at: user.last_login_at,
    };
  }

  return {
    async getProfile(userId) {
      return toProfile(await liveUser(userId));
    },

    async updateProfile(userId, patch) {
      await liveUser(userId);
      const changes: { first_name?: string; last_name?: string; timezone?: string } = {};
      if (patch.first_name !== undefined) changes.first_name = patch.first_name.trim();
      if (patch.last_name !== undefined) changes.last_name = patch.last_name.trim();
      if (patch.timezone !== undefined) {
        const zone = (await deps.timeZones.load()).canonical(patch.timezone);
        if (zone === null) {
          throw new AppError("validation_error", `"${patch.timezone}" is not a supported IANA time zone.`, {
            errors: [{ pointer: "/timezone", message: "must be an IANA time zone such as Europe/London" }],
          });
        }
        changes.timezone = zone;
      }
      if (Object.keys(changes).length === 0) return toProfile(await liveUser(userId));
      return toProfile(await createUsersRepo(db).update(userId, { ...changes, updated_at: nowIso() }));
    },

    async getContext(caller) {
      const user = await liveUser(caller.userId);
      const grant = caller.token ?? null;
      const projects = (await createMembersRepo(db).listForUser(caller.userId)).flatMap(
        ({ project, role }) => {
          const known = parseRole(role);
          return known === undefined ||
            (grant !== null && grant.projectIds !== null && !grant.projectIds.includes(project.id))
            ? []
            : [
                {
                  id: project.id,
                  slug: project.slug,
                  name: project.name,
                  role: known,
                  permissions: permissionsOf(known).filter(
                    (permission) => grant === null || tokenScopeAllows(grant.scope, permission),
                  ),
                },
              ];
        },
      );
      // Roles are per project (`projects`); the account-wide fields keep the defaults of spec 2.6.
      return {
        id: user.id,
        email: user.email,
        display_name: displayName(user),
        picture: pictureUrl(user),
        is_authenticated: true,
        permissions: [],
        role: "member",
        projects,
      };
    },

    async setPicture(userId, upload) {
      await liveUser(userId);
      const stored = await toStoredPicture(upload);
      const now = nowIso();
      const user = await db.transaction().execute(async (trx) => {
        const users = createUsersRepo(trx);
        await users.upsertPicture({
          user_id: userId,
          content_type: "image/webp",
          content_base64: stored.toString("base64"),
          updated_at: now,
        });
        return users.update(userId, { picture_updated_at: now, updated_at: now });
      });
      return { picture: pictureUrl(user), message: "Profile picture updated" };
    },

    async removePicture(userId) {
      await liveUser(userId);
      await db.transaction().execute(async (trx) => {
        const users = createUsersRepo(trx);
        await users.deletePicture(userId);
        await users.update(userId, { picture_updated_at: null, updated_at: nowIso() });
      });
      return { message: "Profile picture removed" };
    },

    async getPicture(userId) {
      const users = createUsersRepo(db);
      const [user, picture] = await Promise.all([users.findLiveById(userId), users.findPicture(userId)]);
      if (user === undefined || picture === undefined) {
        throw new AppError("not_found", "This user has no profile picture.");
      }
      return {
        contentType: picture.content_type,
        bytes: Buffer.from(picture.content_base64, "base64"),
        updatedAt: picture.updated_at,
      };
    },

    async deleteAccount(userId) {
      const afterCommit: Array<() => void> = [];
      await db.transaction().execute(async (trx) => {
        const users = createUsersRepo(trx);
        const user = await users.findLiveById(userId);
        if (user === undefined) throw new AppError("authentication_error", "This account no longer exists.");
        for (const hook of hooks) {
          const then = await hook(userId, trx);
          if (typeof then === "function") afterCommit.push(then);
        }
        const now = nowIso();
        // Deleting the sessions (and, by cascade, their refresh tokens) ends every sign-in at
        // once and drops the addresses and devices they recorded.
        await createSessionsRepo(trx).deleteAllForUser(userId);
        await createMagicLinksRepo(trx).deleteByEmail(user.email);
        await users.deletePicture(userId);
        await users.anonymise(userId, now);
      });
      for (const then of afterCommit) {
        try {
          then();
        } catch (error) {
          // The deletion is committed; a failed follow-up must not turn it into an error answer.
          logger.error({ err: error, user_id: userId }, "after-deletion step failed");
        }
      }
      logger.info({ user_id: userId }, "account deleted");
      return { message: "Account deleted" };
    },

    timeZones: () => deps.timeZones.load(),
  };
}
