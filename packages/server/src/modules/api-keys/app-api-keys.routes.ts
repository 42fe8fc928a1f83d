// Routes of /apps/{app_slug}/api-keys: keys that may only ingest records of that app.
import {
  ApiKeyListItemSchema,
  CreateApiKeyBodySchema,
  CreatedApiKeySchema,
  MessageSchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { bearerSecurity, problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { AppParams, AppScopeQuery, resolveAppFor } from "../apps/app-scope.js";
import type { AppsService, ResolvedApp } from "../apps/apps.service.js";
import type { ApiKeysService, KeyScope } from "./api-keys.service.js";

const KeyParams = Type.Object({
  app_slug: Type.String({ maxLength: 200, examples: ["checkout-api"] }),
  key_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});

const scopeOf = ({ app, project }: ResolvedApp): KeyScope => ({ projectId: project.id, appId: app.id });

export async function appApiKeysRoutes(
  app: App,
  { apps, apiKeys }: { apps: AppsService; apiKeys: ApiKeysService },
): Promise<void> {
  app.addHook("onRequest", app.authenticate);
  const common = { security: bearerSecurity };

  app.post(
    "/apps/:app_slug/api-keys",
    {
      schema: {
        ...common,
        operationId: "createAppApiKey",
        tags: ["api-keys"],
        summary: "Create an app API key",
        description: "The key may only ingest records of this app. The whole key is in this response only.",
        params: AppParams,
        querystring: AppScopeQuery,
        body: CreateApiKeyBodySchema,
        response: { 201: CreatedApiKeySchema, ...problemResponses(401, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const resolved = await resolveAppFor(apps, request, "admin");
      return reply.code(201).send(await apiKeys.createKey(scopeOf(resolved), request.body));
    },
  );

  app.get(
    "/apps/:app_slug/api-keys",
    {
      schema: {
        ...common,
        operationId: "listAppApiKeys",
        tags: ["api-keys"],
        summary: "List an app's API keys",
        description: "Revoked keys included, newest first.",
        params: AppParams,
        querystring: AppScopeQuery,
        response: { 200: Type.Array(ApiKeyListItemSchema), ...problemResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const resolved = await resolveAppFor(apps, request, "admin");
      return apiKeys.listKeys(scopeOf(resolved));
    },
  );

  app.delete(
    "/apps/:app_slug/api-keys/:key_id",
    {
      schema: {
        ...common,
        operationId: "revokeAppApiKey",
        tags: ["api-keys"],
        summary: "Revoke an app API key",
        params: KeyParams,
        querystring: AppScopeQuery,
        response: { 200: MessageSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const resolved = await resolveAppFor(apps, request, "admin");
      await apiKeys.revokeKey(scopeOf(resolved), request.params.key_id);
      return { message: "API key revoked" };
    },
  );
}
