// Routes of /users/me/tokens: the signed-in user's personal access tokens. Managing tokens needs
// a signed-in session (`access.session`): a token cannot mint, list or revoke tokens.
import {
  CreatedPersonalTokenSchema,
  CreatePersonalTokenBodySchema,
  MessageSchema,
  PersonalTokenListSchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { requireSession } from "../../http/bearer-auth.js";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access } from "../access/index.js";
import type { PersonalTokensService } from "./personal-tokens.service.js";

const TokenParams = Type.Object({
  token_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});

export async function personalTokensRoutes(
  app: App,
  { tokens }: { tokens: PersonalTokensService },
): Promise<void> {
  const session = { config: { access: access.session } };

  app.post(
    "/users/me/tokens",
    {
      ...session,
      schema: {
        operationId: "createPersonalToken",
        tags: ["tokens"],
        summary: "Create a personal access token",
        description:
          "Send it as `Authorization: Bearer sl_pat_…` wherever an access token is accepted: it acts as " +
          "you, with your role in each project capped by its scope and limited to its projects. The " +
          "whole token is in this response only. At most 50 live tokens (429 limit_reached).",
        body: CreatePersonalTokenBodySchema,
        response: { 201: CreatedPersonalTokenSchema, ...problemResponses(422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await tokens.createToken(requireSession(request), request.body)),
  );

  app.get(
    "/users/me/tokens",
    {
      ...session,
      schema: {
        operationId: "listPersonalTokens",
        tags: ["tokens"],
        summary: "Your personal access tokens",
        description: "Tokens not revoked, newest first, expired ones included (`is_expired`).",
        response: { 200: PersonalTokenListSchema },
      },
    },
    async (request) => tokens.listTokens(requireSession(request)),
  );

  app.delete(
    "/users/me/tokens/:token_id",
    {
      ...session,
      schema: {
        operationId: "revokePersonalToken",
        tags: ["tokens"],
        summary: "Revoke a personal access token",
        description:
          "It stops working at once. 404 for an unknown token, one already revoked, or another user's.",
        params: TokenParams,
        response: { 200: MessageSchema, ...problemResponses(404, 422) },
      },
    },
    async (request) => tokens.revokeToken(requireSession(request), request.params.token_id),
  );
}
