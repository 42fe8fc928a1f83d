// Sessions (one per refresh-token family; the id is the JWT `sid`) and their refresh tokens.
// Revocation is a timestamp on the session, so one indexed lookup decides an access token.
import type { Kysely, Selectable } from "kysely";
import type { MetadataTables, SessionsTable } from "../schema.js";

export type SessionRow = Selectable<SessionsTable>;

export interface NewSession {
  readonly id: string;
  readonly userId: string;
  readonly deviceInfo: string;
  readonly ipAddress: string;
  readonly authMethod: "magic_link" | "password";
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface NewRefreshToken {
  readonly id: string;
  readonly sessionId: string;
  readonly tokenHash: string;
  readonly createdAt: string;
}

/** A refresh token with the facts of its session and user needed to judge it. */
export interface RefreshTokenFacts {
  readonly tokenId: string;
  readonly usedAt: string | null;
  readonly sessionId: string;
  readonly userId: string;
  readonly email: string;
  readonly sessionExpiresAt: string;
  readonly sessionRevokedAt: string | null;
  readonly userDeletedAt: string | null;
}

/** What an access token needs to be accepted: its session alive and its user not deleted. */
export interface LiveSessionFacts {
  readonly email: string;
  readonly lastUsedAt: string;
  /** The session's absolute end. */
  readonly expiresAt: string;
}

export interface SessionsRepo {
  insert(session: NewSession): Promise<void>;
  insertToken(token: NewRefreshToken): Promise<void>;
  findTokenByHash(tokenHash: string): Promise<RefreshTokenFacts | undefined>;
  /** Marks a token exchanged unless it already is; false when another request got there first. */
  markTokenUsed(tokenId: string, usedAt: string): Promise<boolean>;
  /** Marks every unused token of the session exchanged (the caller gets a new one). */
  retireTokens(sessionId: string, usedAt: string): Promise<void>;
  findLive(sessionId: string, userId: string, now: string): Promise<LiveSessionFacts | undefined>;
  /**
   * Sets last_used_at (and the client address when given); with `staleBefore`, only when the
   * stored value is older, so concurrent bearer requests write at most once per interval.
   */
  touch(
    sessionId: string,
    now: string,
    options?: { staleBefore?: string; ipAddress?: string },
  ): Promise<void>;
  /** The user's sessions that are neither revoked nor expired, most recently used first. */
  listLive(userId: string, now: string): Promise<SessionRow[]>;
  /** Revokes one live session of the user; false when there is none with that id. */
  revoke(sessionId: string, userId: string, now: string): Promise<boolean>;
  /** Revokes a session whatever its owner (refresh reuse, logout by token). */
  revokeById(sessionId: string, now: string): Promise<void>;
  /** Revokes every live session of the user but `exceptSessionId`; returns how many. */
  revokeAllForUser(userId: string, now: string, exceptSessionId?: string): Promise<number>;
  deleteAllForUser(userId: string): Promise<void>;
  /** Removes sessions that ended (expired or revoked) before `before`, with their tokens. */
  deleteEndedBefore(before: string): Promise<number>;
}

export function createSessionsRepo(db: Kysely<MetadataTables>): SessionsRepo {
  return {
    async insert(session) {
      await db
        .insertInto("sessions")
        .values({
          id: session.id,
          user_id: session.userId,
          device_info: session.deviceInfo,
          ip_address: session.ipAddress,
          location: "",
          auth_method: session.authMethod,
          created_at: session.createdAt,
          last_used_at: session.createdAt,
          expires_at: session.expiresAt,
          revoked_at: null,
        })
        .execute();
    },
    async insertToken(token) {
      await db
        .insertInto("refresh_tokens")
        .values({
          id: token.id,
          session_id: token.sessionId,
          token_hash: token.tokenHash,
          created_at: token.createdAt,
          used_at: null,
        })
        .execute();
    },
    async findTokenByHash(tokenHash) {
      const row = await db
        .selectFrom("refresh_tokens as t")
        .innerJoin("sessions as s", "s.id", "t.session_id")
        .innerJoin("users as u", "u.id", "s.user_id")
        .select([
          "t.id as tokenId",
          "t.used_at as usedAt",
          "s.id as sessionId",
          "s.user_id as userId",
          "u.email as email",
          "s.expires_at as sessionExpiresAt",
          "s.revoked_at as sessionRevokedAt",
          "u.deleted_at as userDeletedAt",
        ])
        .where("t.token_hash", "=", tokenHash)
        .executeTakeFirst();
      return row;
    },
    async markTokenUsed(tokenId, usedAt) {
      const result = await db
        .updateTable("refresh_tokens")
        .set({ used_at: usedAt })
        .where("id", "=", tokenId)
        .where("used_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async retireTokens(sessionId, usedAt) {
      await db
        .updateTable("refresh_tokens")
        .set({ used_at: usedAt })
        .where("session_id", "=", sessionId)
        .where("used_at", "is", null)
        .execute();
    },
    async findLive(sessionId, userId, now) {
      return db
        .selectFrom("sessions as s")
        .innerJoin("users as u", "u.id", "s.user_id")
        .select(["u.email as email", "s.last_used_at as lastUsedAt", "s.expires_at as expiresAt"])
        .where("s.id", "=", sessionId)
        .where("s.user_id", "=", userId)
        .where("s.revoked_at", "is", null)
        .where("s.expires_at", ">", now)
        .where("u.deleted_at", "is", null)
        .executeTakeFirst();
    },
    async touch(sessionId, now, { staleBefore, ipAddress } = {}) {
      let query = db
        .updateTable("sessions")
        .set(ipAddress === undefined ? { last_used_at: now } : { last_used_at: now, ip_address: ipAddress })
        .where("id", "=", sessionId);
      if (staleBefore !== undefined) query = query.where("last_used_at", "<", staleBefore);
      await query.execute();
    },
    listLive(userId, now) {
      return db
        .selectFrom("sessions")
        .selectAll()
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .orderBy("last_used_at", "desc")
        .orderBy("created_at", "desc")
        .orderBy("id")
        .execute();
    },
    async revoke(sessionId, userId, now) {
      const result = await db
        .updateTable("sessions")
        .set({ revoked_at: now })
        .where("id", "=", sessionId)
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async revokeById(sessionId, now) {
      await db
        .updateTable("sessions")
        .set({ revoked_at: now })
        .where("id", "=", sessionId)
        .where("revoked_at", "is", null)
        .execute();
    },
    async revokeAllForUser(userId, now, exceptSessionId) {
      let query = db
        .updateTable("sessions")
        .set({ revoked_at: now })
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .where("expires_at", ">", now);
      if (exceptSessionId !== undefined) query = query.where("id", "!=", exceptSessionId);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async deleteAllForUser(userId) {
      await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
    },
    async deleteEndedBefore(before) {
      const result = await db
        .deleteFrom("sessions")
        .where((eb) => eb.or([eb("expires_at", "<", before), eb("revoked_at", "<", before)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
