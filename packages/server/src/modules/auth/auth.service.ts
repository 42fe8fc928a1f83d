// Identity: magic-link sign-in (and sign-up), password login, rotating refresh sessions with
// reuse detection, access-token verification with immediate revocation, and the session
// operations of the signed-in user. Knows nothing of HTTP; callers pass the client's facts.
import {
  ACCESS_TOKEN_TTL_SECONDS,
  type ChangePasswordBody,
  type FieldError,
  type LoginBody,
  type Message,
  type PasswordChanged,
  type Session,
  type TokenPair,
  type ValidateBody,
  type ValidateResult,
  type VerifyBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import type { AccessTokenVerifier, AuthContext } from "../../http/bearer-auth.js";
import { newId } from "../../lib/ids.js";
import { createMagicLinksRepo } from "../../stores/metadata/repos/magic-links.repo.js";
import {
  createSessionsRepo,
  type LiveSessionFacts,
  type RefreshTokenFacts,
  type SessionRow,
} from "../../stores/metadata/repos/sessions.repo.js";
import { createUsersRepo, type UserRow } from "../../stores/metadata/repos/users.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { RateLimiter, RateLimitRule } from "../rate-limits/index.js";
import { magicLinkMail, type MailQueue } from "./mail/index.js";
import { hashPassword, passwordPolicyErrors, verifyPassword } from "./passwords.js";
import { type AccessTokenSigner, createOpaqueToken, hashToken } from "./tokens.js";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

const MAGIC_LINK_TTL_MS = 15 * MINUTE_MS;
const SESSION_TTL_REMEMBERED_MS = 30 * DAY_MS;
const SESSION_TTL_BROWSER_MS = DAY_MS;
/** Bearer use moves a session's last_used_at at most this often. */
const LAST_USED_RESOLUTION_MS = MINUTE_MS;
const SWEEP_EVERY_MS = 10 * MINUTE_MS;

const MAGIC_LINK_PER_EMAIL: RateLimitRule = { name: "magic-link-email", limit: 3, windowSeconds: 60 };
const MAGIC_LINK_PER_IP: RateLimitRule = { name: "magic-link-ip", limit: 20, windowSeconds: 60 };
const LOGIN_FAILURES: RateLimitRule = { name: "login-failures", limit: 10, windowSeconds: 15 * 60 };
/** Failed logins from one client address, whatever the accounts: stops password spraying (one
 *  guess against many addresses) that the per-address lockout cannot see. */
const LOGIN_FAILURES_PER_IP: RateLimitRule = { name: "login-failures-ip", limit: 30, windowSeconds: 15 * 60 };

const MAGIC_LINK_SENT = "If that address can receive e-mail, a sign-in link is on its way.";
const BAD_CREDENTIALS = "Invalid e-mail or password.";
const BAD_ACCESS_TOKEN = "The access token is invalid, expired, or its session has been signed out.";
const TOO_MANY_FAILURES =
  "Too many failed password attempts for this address; wait, or sign in with an e-mail link.";
const TOO_MANY_FAILURES_FROM_IP =
  "Too many failed password attempts from your network address; wait, or sign in with an e-mail link.";

/** What the service needs to know about the HTTP client. */
export interface ClientFacts {
  /** The client address (X-Forwarded-For only behind a trusted proxy). */
  readonly ip: string;
  readonly userAgent: string | undefined;
}

/** A live session and its caller, as the dashboard's cookie session resolves it. */
export interface LiveSession {
  readonly caller: AuthContext;
  /** The session's absolute end: a cookie for it must not outlive this. */
  readonly expiresAt: string;
}

export interface AuthService extends AccessTokenVerifier {
  requestMagicLink(email: string, client: ClientFacts): Promise<Message>;
  verifyMagicLink(body: VerifyBody, client: ClientFacts): Promise<TokenPair>;
  login(body: LoginBody, client: ClientFacts): Promise<TokenPair>;
  refresh(refreshToken: string, client: ClientFacts): Promise<TokenPair>;
  validate(body: ValidateBody): Promise<ValidateResult>;
  logout(refreshToken: string): Promise<Message>;
  /**
   * The caller of a live session named by id (the dashboard's sealed cookie carries it), with the
   * same checks and last-used bookkeeping as an access token; authentication_error otherwise.
   */
  verifySession(sessionId: string, userId: string): Promise<LiveSession>;
  listSessions(caller: AuthContext): Promise<Session[]>;
  revokeSession(caller: AuthContext, sessionId: string): Promise<Message>;
  logoutAll(caller: AuthContext): Promise<Message>;
  logoutOthers(caller: AuthContext): Promise<Message>;
  changePassword(caller: AuthContext, body: ChangePasswordBody): Promise<PasswordChanged>;
}

export interface AuthServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly rateLimiter: RateLimiter;
  readonly signer: AccessTokenSigner;
  readonly mail: MailQueue;
  /** PUBLIC_URL: links in e-mails point at `${publicUrl}/auth/verify`. */
  readonly publicUrl: string;
  readonly logger: Logger;
}

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

export function createAuthService(deps: AuthServiceDeps): AuthService {
  const { db, clock, rateLimiter, signer, mail, publicUrl, logger } = deps;
  let lastSweepMs = 0;

  const nowIso = () => toIsoTimestamp(clock.now());
  const isoIn = (ms: number) => toIsoTimestamp(new Date(clock.now().getTime() + ms));

  /** Starts a session (refresh family) for the user and issues its first token pair. */
  async function startSession(
    trx: Kysely<MetadataTables>,
    user: UserRow,
    method: "magic_link" | "password",
    options: { rememberMe: boolean | undefined; deviceInfo: string | undefined; client: ClientFacts },
  ): Promise<TokenPair> {
    const sessionId = newId();
    const now = nowIso();
    const sessions = createSessionsRepo(trx);
    await sessions.insert({
      id: sessionId,
      userId: user.id,
      deviceInfo: deviceLabel(options.deviceInfo, options.client.userAgent),
      ipAddress: options.client.ip,
      authMethod: method,
      createdAt: now,
      expiresAt: isoIn((options.rememberMe ?? true) ? SESSION_TTL_REMEMBERED_MS : SESSION_TTL_BROWSER_MS),
    });
    return issuePair(trx, { userId: user.id, email: user.email, sessionId });
  }

  /** A new refresh token in the session and an access token naming it. */
  async function issuePair(trx: Kysely<MetadataTables>, caller: AuthContext): Promise<TokenPair> {
    const refresh = createOpaqueToken();
    await createSessionsRepo(trx).insertToken({
      id: newId(),
      sessionId: caller.sessionId,
      tokenHash: refresh.hash,
      createdAt: nowIso(),
    });
    return {
      access_token: await signer.sign(caller),
      refresh_token: refresh.token,
      token_type: "Bearer",
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
    };
  }

  /**
   * A refresh token that was already exchanged is treated as stolen: the whole family is revoked,
   * however soon after the exchange it comes back (issue rule; clients refresh from one place).
   */
  async function refuseReuse(trx: Kysely<MetadataTables>, facts: RefreshTokenFacts): Promise<AppError> {
    await createSessionsRepo(trx).revokeById(facts.sessionId, nowIso());
    logger.warn(
      { session_id: facts.sessionId, user_id: facts.userId },
      "refresh token reuse; session revoked",
    );
    return new AppError(
      "token_invalid",
      "This refresh token was already used, so the session has been signed out. Sign in again.",
    );
  }

  /** The caller of a live session, without side effects. */
  async function resolveSession(sessionId: string, userId: string) {
    const facts = await createSessionsRepo(db).findLive(sessionId, userId, nowIso());
    if (facts === undefined) return null;
    return { caller: { userId, email: facts.email, sessionId }, facts };
  }

  /** The caller behind a well-signed access token whose session is alive, without side effects. */
  async function resolveAccessToken(token: string) {
    const claims = await signer.verify(token);
    if (claims === null) return null;
    return resolveSession(claims.sessionId, claims.userId);
  }

  /** Accepts a resolved session: a write only when its last_used_at is a minute old. */
  async function accept(
    resolved: { caller: AuthContext; facts: LiveSessionFacts } | null,
  ): Promise<LiveSession> {
    if (resolved === null) throw new AppError("authentication_error", BAD_ACCESS_TOKEN);
    const nowMs = clock.now().getTime();
    // The session row was just read: write only when its last_used_at is a minute old, so
    // most authenticated requests cost one indexed read and nothing else.
    if (Date.parse(resolved.facts.lastUsedAt) <= nowMs - LAST_USED_RESOLUTION_MS) {
      await createSessionsRepo(db).touch(resolved.caller.sessionId, toIsoTimestamp(new Date(nowMs)), {
        staleBefore: toIsoTimestamp(new Date(nowMs - LAST_USED_RESOLUTION_MS + 1)),
      });
    }
    return { caller: resolved.caller, expiresAt: resolved.facts.expiresAt };
  }

  async function sweep(): Promise<void> {
    const nowMs = clock.now().getTime();
    if (nowMs - lastSweepMs < SWEEP_EVERY_MS) return;
    lastSweepMs = nowMs;
    try {
      await createMagicLinksRepo(db).deleteExpired(toIsoTimestamp(new Date(nowMs - DAY_MS)));
      // Ended sessions are kept a day: reuse of their tokens is refused either way.
      await createSessionsRepo(db).deleteEndedBefore(toIsoTimestamp(new Date(nowMs - DAY_MS)));
    } catch (error) {
      logger.warn({ err: error }, "identity sweep failed");
    }
  }

  async function revokeMany(caller: AuthContext, exceptCurrent: boolean): Promise<number> {
    return createSessionsRepo(db).revokeAllForUser(
      caller.userId,
      nowIso(),
      exceptCurrent ? caller.sessionId : undefined,
    );
  }

  return {
    async requestMagicLink(rawEmail, client) {
      const email = normaliseEmail(rawEmail);
      // Exactly the same work whatever the address: no account lookup happens here (the
      // account is created on first verification), and the e-mail goes out in the background.
      await rateLimiter.consume(
        MAGIC_LINK_PER_IP,
        client.ip,
        "Too many sign-in links requested from your network address; wait a minute.",
      );
      await rateLimiter.consume(
        MAGIC_LINK_PER_EMAIL,
        email,
        "Too many sign-in links requested for this e-mail address; wait a minute.",
      );
      const link = createOpaqueToken();
      await createMagicLinksRepo(db).insert({
        id: newId(),
        email,
        tokenHash: link.hash,
        ipAddress: client.ip,
        createdAt: nowIso(),
        expiresAt: isoIn(MAGIC_LINK_TTL_MS),
      });
      const url = `${publicUrl}/auth/verify?token=${encodeURIComponent(link.token)}`;
      mail.enqueue(
        magicLinkMail({ to: email, url, token: link.token, validMinutes: MAGIC_LINK_TTL_MS / MINUTE_MS }),
      );
      await sweep();
      return { message: MAGIC_LINK_SENT };
    },

    async verifyMagicLink(body, client) {
      const tokenHash = hashToken(body.token);
      return db.transaction().execute(async (trx) => {
        const links = createMagicLinksRepo(trx);
        const link = await links.findByHash(tokenHash);
        const now = nowIso();
        if (link === undefined) throw new AppError("token_invalid", "This sign-in link is not valid.");
        const alreadyUsed = () => new AppError("token_invalid", "This sign-in link has already been used.");
        if (link.used_at !== null) throw alreadyUsed();
        if (link.expires_at <= now) {
          throw new AppError("token_expired", "This sign-in link has expired; ask for a new one.");
        }
        // Conditional update: of two requests racing with one link, exactly one gets here.
        if (!(await links.markUsed(link.id, now))) throw alreadyUsed();

        const users = createUsersRepo(trx);
        const found = await users.insertOrFindLive({ id: newId(), email: link.email, now });
        const user = await users.update(found.id, {
          last_login_at: now,
          email_verified_at: found.email_verified_at ?? now,
        });
        return startSession(trx, user, "magic_link", {
          rememberMe: body.remember_me,
          deviceInfo: body.device_info,
          client,
        });
      });
    },

    async login(body, client) {
      const email = normaliseEmail(body.email);
      // Both attempts are counted before argon2 runs, so parallel guesses cannot outrun the limits.
      const fromClient = await rateLimiter.attempt(
        LOGIN_FAILURES_PER_IP,
        client.ip,
        TOO_MANY_FAILURES_FROM_IP,
      );
      await rateLimiter.attempt(LOGIN_FAILURES, email, TOO_MANY_FAILURES);
      const user = await createUsersRepo(db).findLiveByEmail(email);
      // Unknown account, no password yet, wrong password: one answer, one argon2 run each.
      const matches = await verifyPassword(user?.password_hash ?? null, body.password);
      if (user === undefined || !matches) throw new AppError("authentication_error", BAD_CREDENTIALS);
      // Not failures after all: the address starts afresh, the client keeps its other failures.
      await rateLimiter.reset(LOGIN_FAILURES, email);
      await fromClient.refund();
      return db.transaction().execute(async (trx) => {
        const updated = await createUsersRepo(trx).update(user.id, { last_login_at: nowIso() });
        return startSession(trx, updated, "password", {
          rememberMe: body.remember_me,
          deviceInfo: body.device_info,
          client,
        });
      });
    },

    async refresh(refreshToken, client) {
      const tokenHash = hashToken(refreshToken);
      // Revoking a family must commit even though the answer is an error, so the transaction
      // returns its outcome and the error is thrown after it.
      const outcome = await db.transaction().execute(async (trx): Promise<Outcome<TokenPair>> => {
        const sessions = createSessionsRepo(trx);
        const facts = await sessions.findTokenByHash(tokenHash);
        const now = nowIso();
        if (facts === undefined) {
          return { ok: false, error: new AppError("token_invalid", "This refresh token is not valid.") };
        }
        if (facts.sessionRevokedAt !== null || facts.userDeletedAt !== null) {
          return { ok: false, error: new AppError("token_invalid", "This session has been signed out.") };
        }
        if (facts.usedAt !== null) return { ok: false, error: await refuseReuse(trx, facts) };
        if (facts.sessionExpiresAt <= now) {
          return {
            ok: false,
            error: new AppError("token_expired", "This session has expired; sign in again."),
          };
        }
        if (!(await sessions.markTokenUsed(facts.tokenId, now))) {
          // Another request exchanged it between our read and our write: reuse all the same.
          return { ok: false, error: await refuseReuse(trx, { ...facts, usedAt: now }) };
        }
        await sessions.touch(facts.sessionId, now, { ipAddress: client.ip });
        const pair = await issuePair(trx, {
          userId: facts.userId,
          email: facts.email,
          sessionId: facts.sessionId,
        });
        return { ok: true, value: pair };
      });
      if (!outcome.ok) throw outcome.error;
      return outcome.value;
    },

    async validate(body) {
      if (body.access_token !== undefined) {
        return { valid: (await resolveAccessToken(body.access_token)) !== null };
      }
      const facts = await createSessionsRepo(db).findTokenByHash(hashToken(body.refresh_token ?? ""));
      const valid =
        facts !== undefined &&
        facts.usedAt === null &&
        facts.sessionRevokedAt === null &&
        facts.userDeletedAt === null &&
        facts.sessionExpiresAt > nowIso();
      return { valid };
    },

    async logout(refreshToken) {
      const sessions = createSessionsRepo(db);
      const facts = await sessions.findTokenByHash(hashToken(refreshToken));
      // Any token of the family signs the family out; an unknown one is a silent no-op, so the
      // answer reveals nothing about tokens.
      if (facts !== undefined) await sessions.revokeById(facts.sessionId, nowIso());
      return { message: "Signed out" };
    },

    async verifyAccessToken(token) {
      return (await accept(await resolveAccessToken(token))).caller;
    },

    async verifySession(sessionId, userId) {
      return accept(await resolveSession(sessionId, userId));
    },

    async listSessions(caller) {
      const rows = await createSessionsRepo(db).listLive(caller.userId, nowIso());
      return rows.map((row) => toSession(row, caller.sessionId));
    },

    async revokeSession(caller, sessionId) {
      const revoked = await createSessionsRepo(db).revoke(sessionId, caller.userId, nowIso());
      if (!revoked) throw new AppError("not_found", "No such session among yours.");
      return { message: "Session revoked" };
    },

    async logoutAll(caller) {
      const count = await revokeMany(caller, false);
      return { message: `Signed out ${count} ${count === 1 ? "session" : "sessions"}` };
    },

    async logoutOthers(caller) {
      const count = await revokeMany(caller, true);
      return { message: `Signed out ${count} other ${count === 1 ? "session" : "sessions"}` };
    },

    async changePassword(caller, body) {
      const user = await createUsersRepo(db).findLiveById(caller.userId);
      if (user === undefined) throw new AppError("authentication_error", BAD_ACCESS_TOKEN);
      const errors: FieldError[] = [];
      if (body.confirm_password !== body.new_password) {
        errors.push({ pointer: "/confirm_password", message: "must equal new_password" });
      }
      errors.push(...passwordPolicyErrors(body.new_password, user.email, "/new_password"));
      if (user.password_hash !== null && body.current_password === undefined) {
        errors.push({ pointer: "/current_password", message: "is required to change an existing password" });
      }
      if (errors.length > 0) throw validationError(errors);

      if (user.password_hash !== null) {
        // Guessing the current password through this route shares the login lockout.
        const guess = await rateLimiter.attempt(LOGIN_FAILURES, user.email, TOO_MANY_FAILURES);
        if (!(await verifyPassword(user.password_hash, body.current_password ?? ""))) {
          throw validationError([{ pointer: "/current_password", message: "is not the current password" }]);
        }
        await guess.refund();
      }
      const passwordHash = await hashPassword(body.new_password);
      const pair = await db.transaction().execute(async (trx) => {
        const now = nowIso();
        await createUsersRepo(trx).update(user.id, { password_hash: passwordHash, updated_at: now });
        const sessions = createSessionsRepo(trx);
        await sessions.revokeAllForUser(user.id, now, caller.sessionId);
        // The caller's session goes on with a fresh pair; its older refresh tokens are retired.
        await sessions.retireTokens(caller.sessionId, now);
        return issuePair(trx, { userId: user.id, email: user.email, sessionId: caller.sessionId });
      });
      return { message: "Password updated; your other sessions were signed out.", ...pair };
    },
  };
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function deviceLabel(deviceInfo: string | undefined, userAgent: string | undefined): string {
  const label = deviceInfo?.trim() || userAgent?.trim() || "";
  return [...label].slice(0, 255).join("");
}

function toSession(row: SessionRow, currentSessionId: string): Session {
  return {
    id: row.id,
    device_info: row.device_info,
    last_used_at: row.last_used_at,
    created_at: row.created_at,
    ip_address: row.ip_address,
    location: row.location,
    is_current: row.id === currentSessionId,
  };
}

function validationError(errors: FieldError[]): AppError {
  const summary = errors.map((e) => `${e.pointer} ${e.message}`).join("; ");
  return new AppError("validation_error", `Invalid request: ${summary}.`, { errors });
}
