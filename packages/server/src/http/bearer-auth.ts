// Bearer authentication for /users, /projects and /apps routes: the route declares
// `onRequest: app.authenticate`, and the handler reads `request.auth`. Verifying the token
// (signature, expiry, live session family) belongs to the identity module, behind
// AccessTokenVerifier, so http/ stays free of domain code.
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
    /** onRequest hook: requires `Authorization: Bearer <access token>`. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/i;

export const bearerAuthPlugin = fp(
  async (app: App, options: { verifier: AccessTokenVerifier }) => {
    app.decorateRequest("auth", null);
    app.decorate("authenticate", async (request) => {
      const header = request.headers.authorization;
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
  if (request.auth === null) throw new Error("route is missing onRequest: app.authenticate");
  return request.auth;
}
