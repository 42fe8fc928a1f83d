// The dashboard's cookie session at the HTTP edge: reading and writing the HttpOnly cookie,
// authenticating a request by it (through SessionCookieVerifier, so http/ holds no domain
// code), the CSRF guard on state-changing requests, and clearing the cookie whenever the
// session it names has ended. Bearer requests never reach any of this.
import { CSRF_HEADER_NAME, SESSION_COOKIE_NAME } from "@sightline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../errors.js";
import type { AuthContext } from "./bearer-auth.js";
import type { App } from "./types.js";

export interface SessionCookieVerifier {
  /** The caller of the session a cookie value names, or AppError("authentication_error"). */
  verifySessionCookie(value: string): Promise<AuthContext>;
}

export interface SessionCookieOptions {
  readonly verifier: SessionCookieVerifier;
  /** PUBLIC_URL: its scheme decides `Secure`. */
  readonly publicUrl: string;
  /** The only origins a state-changing cookie request may come from (Config.publicOrigins). */
  readonly allowedOrigins: readonly string[];
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Requests authenticated by the cookie (not by a bearer token). */
const cookieAuthenticated = new WeakSet<FastifyRequest>();

/** Operations that end the caller's own session when they succeed. */
const SESSION_ENDING_OPERATIONS = new Set(["logoutAllSessions", "deleteCurrentUser"]);

export function isCookieAuthenticated(request: FastifyRequest): boolean {
  return cookieAuthenticated.has(request);
}

/** The value of cookie `name` in a Cookie header; undefined when absent or empty. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value === "" ? undefined : value;
  }
  return undefined;
}

export interface CookieAttributes {
  readonly secure: boolean;
  /** Seconds; undefined for a cookie that ends with the browser session. */
  readonly maxAgeSeconds: number | undefined;
}

/** A Set-Cookie value for the session cookie (the value is base64url and dots: no escaping). */
export function sessionCookieHeader(value: string, attributes: CookieAttributes): string {
  return [
    `${SESSION_COOKIE_NAME}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    ...(attributes.secure ? ["Secure"] : []),
    ...(attributes.maxAgeSeconds === undefined ? [] : [`Max-Age=${Math.max(0, attributes.maxAgeSeconds)}`]),
  ].join("; ");
}

/** A Set-Cookie value that removes the session cookie. */
export function clearedSessionCookieHeader(secure: boolean): string {
  return `${sessionCookieHeader("", { secure, maxAgeSeconds: 0 })}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

export function isSecurePublicUrl(publicUrl: string): boolean {
  return new URL(publicUrl).protocol === "https:";
}

/**
 * CSRF guard for a state-changing request that a browser session may carry: it must name one
 * of this server's configured origins (PUBLIC_URL's and its aliases) in Origin (or, lacking it,
 * Referer), not be marked cross-site by the browser, and carry the custom header, which a
 * cross-origin page cannot add without a CORS preflight this server never grants. The request's
 * own Host is not trusted: whoever sends the request chooses it (a DNS-rebinding page does).
 */
export function assertSameOriginRequest(request: FastifyRequest, allowedOrigins: readonly string[]): void {
  const refuse = (why: string) => {
    throw new AppError("csrf_rejected", `Refused a cross-site request: ${why}.`);
  };
  if (request.headers["sec-fetch-site"] === "cross-site") refuse("the browser marked it cross-site");
  const origin = originOf(request.headers.origin) ?? originOf(request.headers.referer);
  if (origin === undefined) refuse("it has neither an Origin nor a Referer header");
  if (!allowedOrigins.includes(origin as string)) refuse(`origin ${origin} is not this server's`);
  if (request.headers[CSRF_HEADER_NAME] !== "1") refuse(`the ${CSRF_HEADER_NAME}: 1 header is missing`);
}

function originOf(value: string | string[] | undefined): string | undefined {
  if (typeof value !== "string" || value === "" || value === "null") return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cookie half of `app.authenticate`: null when the request carries no session cookie (the
 * caller then asks for a bearer token); the caller otherwise. An ended session's cookie is
 * cleared in the 401 answer.
 */
export function createCookieAuthenticator(
  options: SessionCookieOptions,
): (request: FastifyRequest) => Promise<AuthContext | null> {
  const secure = isSecurePublicUrl(options.publicUrl);
  return async (request) => {
    const value = readCookie(request.headers.cookie, SESSION_COOKIE_NAME);
    if (value === undefined) return null;
    if (UNSAFE_METHODS.has(request.method)) assertSameOriginRequest(request, options.allowedOrigins);
    try {
      const caller = await options.verifier.verifySessionCookie(value);
      cookieAuthenticated.add(request);
      return caller;
    } catch (error) {
      if (error instanceof AppError && error.code === "authentication_error") {
        throw new AppError(error.code, error.detail, {
          headers: { "set-cookie": clearedSessionCookieHeader(secure) },
        });
      }
      throw error;
    }
  };
}

/** Clears the cookie in the answer of a cookie-authenticated request that ended its own session. */
export const sessionCookiePlugin = fp(
  async (app: App, options: { publicUrl: string }) => {
    const secure = isSecurePublicUrl(options.publicUrl);
    app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply) => {
      if (!cookieAuthenticated.has(request) || reply.statusCode >= 300) return;
      if (endedOwnSession(request)) reply.header("set-cookie", clearedSessionCookieHeader(secure));
    });
  },
  { name: "sightline-session-cookie" },
);

function endedOwnSession(request: FastifyRequest): boolean {
  const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  if (operationId === undefined) return false;
  if (SESSION_ENDING_OPERATIONS.has(operationId)) return true;
  const params = request.params as { session_id?: unknown } | undefined;
  return operationId === "revokeSession" && params?.session_id === request.auth?.sessionId;
}
