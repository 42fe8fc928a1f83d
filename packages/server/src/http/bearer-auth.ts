// Authentication of users: the access plugin calls `app.authenticate` for every route whose
// declared scope needs a user, and the handler reads `request.auth`. Verifying the token
// (signature, expiry, live session family) belongs to the identity module, behind
// AccessTokenVerifier, so http/ stays free of domain code. Without an Authorization header, the
// dashboard's session cookie is accepted instead (session-cookie.ts); a bearer token always wins.
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
}

export interface AccessTokenVerifier {
  /** Resolves the caller, or throws AppError("authentication_error") for any bad token. */
  verifyAccessToken(token: string): Promise<AuthContext>;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by `app.authenticate`; null on routes that do not require it. */
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** onRequest hook: requires `Authorization: Bearer <access token>` or the session cookie. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i;

export interface BearerAuthOptions {
  readonly verifier: AccessTokenVerifier;
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
      try {
        request.auth = await options.verifier.verifyAccessToken(match[1] as string);
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
export function requireAuth(request: { auth: AuthContext | null }): AuthContext {
  if (request.auth === null) throw new Error("route does not declare a scope that needs a signed-in user");
  return request.auth;
}
