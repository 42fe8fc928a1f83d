// Routes of /auth/session: the dashboard signs in (by e-mail link or password) into an
// HttpOnly cookie, reads its session, changes the password and signs out. Signing in is
// CSRF-checked like every cookie-authenticated write, so no other site can sign a browser in.
import {
  BrowserLinkSignInBodySchema,
  BrowserPasswordSignInBodySchema,
  BrowserSessionSchema,
  BrowserSessionStateSchema,
  ChangePasswordBodySchema,
  SESSION_COOKIE_NAME,
  MessageSchema,
} from "@sightline/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { requireAuth, requireSession } from "../../http/bearer-auth.js";
import { problemResponses } from "../../http/schemas.js";
import {
  assertSameOriginRequest,
  clearedSessionCookieHeader,
  isSecurePublicUrl,
  readCookie,
  sessionCookieHeader,
} from "../../http/session-cookie.js";
import type { App } from "../../http/types.js";
import { access } from "../access/index.js";
import type { ClientFacts } from "./auth.service.js";
import type { BrowserSessionService, BrowserSignIn } from "./browser-session.service.js";

/** Routes of the signed-in browser; a bearer token is accepted too, as everywhere. */
const cookieSecurity: Array<Record<string, string[]>> = [{ sessionCookie: [] }, { bearerAuth: [] }];

const SIGN_IN_NOTE =
  "Sets the HttpOnly session cookie (`SameSite=Lax`, `Secure` when PUBLIC_URL is https); the answer " +
  "carries no token. Requires a same-origin `Origin` (or `Referer`) and `X-Sightline-CSRF: 1` " +
  "(403 `csrf_rejected` otherwise). The session appears in GET /users/sessions with the browser's " +
  "User-Agent as its device.";

export async function browserSessionRoutes(
  app: App,
  {
    browserSessions,
    publicUrl,
    allowedOrigins,
  }: { browserSessions: BrowserSessionService; publicUrl: string; allowedOrigins: readonly string[] },
): Promise<void> {
  const secure = isSecurePublicUrl(publicUrl);
  const clientFacts = (request: FastifyRequest): ClientFacts => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });
  const sameOrigin = {
    preValidation: async (request: FastifyRequest) => assertSameOriginRequest(request, allowedOrigins),
  };
  const started = (reply: FastifyReply, signIn: BrowserSignIn) =>
    reply
      .header(
        "set-cookie",
        sessionCookieHeader(signIn.cookieValue, { secure, maxAgeSeconds: signIn.maxAgeSeconds }),
      )
      .send(signIn.session);

  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.post(
    "/auth/session",
    {
      ...sameOrigin,
      config: { access: access.public },
      schema: {
        operationId: "createBrowserSession",
        tags: ["auth"],
        summary: "Sign a browser in with a sign-in link's token",
        description:
          "The dashboard's counterpart of POST /auth/verify: the same token rules (401 `token_invalid` " +
          "when unknown or used, `token_expired` when expired) and session lifetimes. " +
          SIGN_IN_NOTE,
        body: BrowserLinkSignInBodySchema,
        response: { 200: BrowserSessionSchema, ...problemResponses(401, 403, 422) },
      },
    },
    async (request, reply) =>
      started(reply, await browserSessions.signInWithLink(request.body, clientFacts(request))),
  );

  app.post(
    "/auth/session/password",
    {
      ...sameOrigin,
      config: { access: access.public },
      schema: {
        operationId: "createBrowserSessionWithPassword",
        tags: ["auth"],
        summary: "Sign a browser in with e-mail and password",
        description:
          "The dashboard's counterpart of POST /auth/login: one 401 for every wrong combination and the " +
          "same lockout (429). " +
          SIGN_IN_NOTE,
        body: BrowserPasswordSignInBodySchema,
        response: { 200: BrowserSessionSchema, ...problemResponses(401, 403, 422, 429) },
      },
    },
    async (request, reply) =>
      started(reply, await browserSessions.signInWithPassword(request.body, clientFacts(request))),
  );

  app.get(
    "/auth/session",
    {
      config: { access: access.session },
      schema: {
        security: cookieSecurity,
        operationId: "getBrowserSession",
        tags: ["auth"],
        summary: "The signed-in browser's session",
        description:
          "Answers 401 (and clears the cookie) when the session has ended: signed out here or elsewhere, " +
          "revoked, expired, or the account deleted.",
        response: { 200: BrowserSessionSchema, ...problemResponses(401) },
      },
    },
    async (request) => browserSessions.describe(requireSession(request)),
  );

  app.get(
    "/auth/session/state",
    {
      config: { access: access.public },
      schema: {
        security: [{ sessionCookie: [] }, {}],
        operationId: "getBrowserSessionState",
        tags: ["auth"],
        summary: "Whether this browser is signed in",
        description:
          "The dashboard's first question. Without a session cookie the answer is 200 with `session: null` " +
          "(a visitor who never signed in is not an error); with one, the cookie's live session, or 401 " +
          "(clearing the cookie) when that session has ended, as GET /auth/session. A personal access " +
          "token is no browser session: `session: null`.",
        response: { 200: BrowserSessionStateSchema, ...problemResponses(401) },
      },
    },
    async (request) => {
      if (readCookie(request.headers.cookie, SESSION_COOKIE_NAME) === undefined) return { session: null };
      await app.authenticate(request);
      const caller = requireAuth(request);
      return { session: caller.token === undefined ? await browserSessions.describe(caller) : null };
    },
  );

  app.post(
    "/auth/session/change-password",
    {
      config: { access: access.session },
      schema: {
        security: cookieSecurity,
        operationId: "changeBrowserSessionPassword",
        tags: ["auth"],
        summary: "Set or change the password from the dashboard",
        description:
          "Same rules as POST /users/me/password (other sessions are signed out; this one goes on), " +
          "but answers only a message: a browser never receives tokens.",
        body: ChangePasswordBodySchema,
        response: { 200: MessageSchema, ...problemResponses(401, 403, 422, 429) },
      },
    },
    async (request) => browserSessions.changePassword(requireSession(request), request.body),
  );

  app.delete(
    "/auth/session",
    {
      config: { access: access.session },
      schema: {
        security: cookieSecurity,
        operationId: "deleteBrowserSession",
        tags: ["auth"],
        summary: "Sign the browser out",
        description: "Revokes the cookie's session at once and clears the cookie.",
        response: { 200: MessageSchema, ...problemResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const result = await browserSessions.signOut(requireSession(request));
      return reply.header("set-cookie", clearedSessionCookieHeader(secure)).send(result);
    },
  );
}
