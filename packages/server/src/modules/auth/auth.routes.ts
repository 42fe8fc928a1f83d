// Routes of /auth: sign-in by e-mail link or password, refresh rotation, validation, logout.
// None needs a bearer token; every answer carrying tokens is marked `Cache-Control: no-store`.
import {
  LoginBodySchema,
  LogoutBodySchema,
  MagicLinkBodySchema,
  MessageSchema,
  RefreshBodySchema,
  TokenPairSchema,
  ValidateBodySchema,
  ValidateResultSchema,
  VerifyBodySchema,
} from "@sightline/contracts";
import type { FastifyRequest } from "fastify";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import type { AuthService, ClientFacts } from "./auth.service.js";
import { access } from "../access/index.js";

function clientFacts(request: FastifyRequest): ClientFacts {
  return { ip: request.ip, userAgent: request.headers["user-agent"] };
}

export async function authRoutes(app: App, { auth }: { auth: AuthService }): Promise<void> {
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.post(
    "/auth/magic-link",
    {
      config: { access: access.public },
      schema: {
        operationId: "requestMagicLink",
        tags: ["auth"],
        summary: "E-mail a sign-in link",
        description:
          "Sends a single-use link (`PUBLIC_URL/auth/verify?token=…`, valid 15 minutes) that signs the " +
          "address in, creating the account on first use. The answer is the same whether or not an " +
          "account exists. At most 3 requests per minute per address and 20 per minute per client " +
          "address (429 with Retry-After).",
        body: MagicLinkBodySchema,
        response: { 200: MessageSchema, ...problemResponses(422, 429) },
      },
    },
    async (request) => auth.requestMagicLink(request.body.email, clientFacts(request)),
  );

  app.post(
    "/auth/verify",
    {
      config: { access: access.public },
      schema: {
        operationId: "verifyMagicLink",
        tags: ["auth"],
        summary: "Exchange a sign-in link's token for tokens",
        description:
          "Starts a session: 30 days with `remember_me` (default), else 24 hours. The first " +
          "verification of an address creates its account. Unknown or used tokens answer 401 " +
          "`token_invalid`, expired ones 401 `token_expired`.",
        body: VerifyBodySchema,
        response: { 200: TokenPairSchema, ...problemResponses(401, 422) },
      },
    },
    async (request) => auth.verifyMagicLink(request.body, clientFacts(request)),
  );

  app.post(
    "/auth/login",
    {
      config: { access: access.public },
      schema: {
        operationId: "loginWithPassword",
        tags: ["auth"],
        summary: "Sign in with e-mail and password",
        description:
          "For accounts that have set a password. A wrong password, an unknown address and an " +
          "account without a password all answer the same 401. After 10 failures for an address " +
          "within 15 minutes, attempts answer 429 until the window ends.",
        body: LoginBodySchema,
        response: { 200: TokenPairSchema, ...problemResponses(401, 422, 429) },
      },
    },
    async (request) => auth.login(request.body, clientFacts(request)),
  );

  app.post(
    "/auth/refresh",
    {
      config: { access: access.public },
      schema: {
        operationId: "refreshSession",
        tags: ["auth"],
        summary: "Rotate the session: a fresh token pair",
        description:
          "Each refresh token works once; the new pair belongs to the same session, which keeps its " +
          "absolute expiry. Presenting an already exchanged token, however soon after its exchange, " +
          "signs the whole session out (401 `token_invalid`): refresh from one place.",
        body: RefreshBodySchema,
        response: { 200: TokenPairSchema, ...problemResponses(401, 422) },
      },
    },
    async (request) => auth.refresh(request.body.refresh_token, clientFacts(request)),
  );

  app.post(
    "/auth/validate",
    {
      config: { access: access.public },
      schema: {
        operationId: "validateToken",
        tags: ["auth"],
        summary: "Tell whether a refresh or access token is currently accepted",
        description: "Send exactly one of the two tokens. Never answers 401: `valid` says it.",
        body: ValidateBodySchema,
        response: { 200: ValidateResultSchema, ...problemResponses(422) },
      },
    },
    async (request) => auth.validate(request.body),
  );

  app.post(
    "/auth/logout",
    {
      config: { access: access.public },
      schema: {
        operationId: "logout",
        tags: ["auth"],
        summary: "Sign out the session of a refresh token",
        description:
          "Revokes the session (its whole refresh family); its access tokens stop working at once. " +
          "An unknown token answers the same 200.",
        body: LogoutBodySchema,
        response: { 200: MessageSchema, ...problemResponses(422) },
      },
    },
    async (request) => auth.logout(request.body.refresh_token),
  );
}
