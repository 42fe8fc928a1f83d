// Authentication of users: the access plugin calls `app.authenticate` for every route whose
// declared scope needs a user, and the handler reads `request.auth`. Verifying the token
// (signature, expiry, live session family) belongs to the identity module, behind
// AccessTokenVerifier, so http/ stays free of domain code. Without an Authorization header, the
// dashboard's session cookie is accepted instead (session-cookie.ts); a bearer token always wins.
// A bearer `sl_pat_…` is a personal access token, verified by the tokens module instead.
import { PERSONAL_TOKEN_PREFIX, type TokenScope } from "@sightline/contracts";
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../errors.js";
import type { App } from "./types.js";

/** Who is calling: established from a verified access token whose session is alive. */
export interface AuthContext {
  readonly userId: string;
  readonly email: string;
  /** The session (refresh-token family) that issued the token: JWT `sid`. */
  readonly sessionId: string;
  readonly token?: undefined;
}

/** What a personal access token grants on top of its owner's role in each project. */
export interface TokenGrant {
  readonly id: string;
  /** The token's display prefix: how audit entries and logs name it. */
  readonly prefix: string;
  readonly scope: TokenScope;
  /** The projects it is limited to; null for every project of its owner. */
  readonly projectIds: readonly string[] | null;
}

/** A caller authenticated by a personal access token: no session behind it. */
export interface TokenCaller {
  readonly userId: string;
  readonly email: string;
  readonly token: TokenGrant;
  readonly sessionId?: undefined;
}

/** Whoever signed in: a session's caller or a personal access token's. */
export type Caller = AuthContext | TokenCaller;

export interface AccessTokenVerifier {
  /** Resolves the caller, or throws AppError("authentication_error") for any bad token. */
  verifyAccessToken(token: string): Promise<AuthContext>;
}

export interface PersonalTokenVerifier {
  /** Resolves the token's caller, or throws authentication_error (bad token) or rate_limited. */
  verifyPersonalToken(token: string): Promise<TokenCaller>;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `app.authenticate`; null on routes that do not require it. */
    auth: Caller | null;
  }
  interface FastifyInstance {
    /** onRequest hook: requires `Authorization: Bearer <access token>` or the session cookie. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i;

export interface BearerAuthOptions {
  readonly verifier: AccessTokenVerifier;
  readonly personalTokens: PersonalTokenVerifier;
  /** The cookie session's authenticator: null when the request carries no session cookie. */
  readonly cookie?: (request: FastifyRequest) => Promise<AuthContext | null>;
}

export const bearerAuthPlugin = fp(
  async (app: App, options: BearerAuthOptions) => {
    app.decorateRequest("auth", null);
    app.decorate("authenticate", async (request) => {
      const header = request.headers.authorization;
      if (header === undefined && options.cookie !== undefined) {
        const caller = await options.cookie(request);
        if (caller !== null) {
          request.auth = caller;
          return;
        }
      }
      const match = typeof header === "string" ? BEARER.exec(header.trim()) : null;
      if (match === null) {
        throw new AppError("authentication_error", "Send Authorization: Bearer <access token>.", {
          headers: { "www-authenticate": 'Bearer realm="sightline"' },
        });
      }
      const token = match[1] as string;
      try {
        request.auth = token.startsWith(PERSONAL_TOKEN_PREFIX)
          ? await options.personalTokens.verifyPersonalToken(token)
          : await options.verifier.verifyAccessToken(token);
      } catch (error) {
        if (error instanceof AppError && error.code === "authentication_error") {
          throw new AppError(error.code, error.detail, {
            headers: { "www-authenticate": 'Bearer realm="sightline", error="invalid_token"' },
          });
        }
        throw error;
      }
    });
  },
  { name: "sightline-bearer-auth" },
);

/** The caller of a route guarded by `app.authenticate`; a programming error otherwise. */
export function requireAuth(request: { auth: Caller | null }): Caller {
  if (request.auth === null) throw new Error("route does not declare a scope that needs a signed-in user");
  return request.auth;
}

/** The projects a caller's token is limited to; null for a session or an unlimited token. */
export function projectsReachedBy(caller: Caller): readonly string[] | null {
  return caller.token?.projectIds ?? null;
}

/**
 * The session caller of a route declared `access.session`, which the access plugin closes to
 * personal access tokens; a programming error on any other route.
 */
export function requireSession(request: { auth: Caller | null }): AuthContext {
  const caller = requireAuth(request);
  if (caller.token !== undefined) throw new Error("route does not declare access.session");
  return caller;
}
