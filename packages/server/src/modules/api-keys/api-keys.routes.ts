// Routes of API keys: project keys (`/projects/{project_slug}/api-keys`, spec 4.4) and app keys
// (`/apps/{app_slug}/api-keys`, spec 4.5), which may only ingest records of their app.
import {
  ApiKeyListItemSchema,
  CreateApiKeyBodySchema,
  CreatedApiKeySchema,
  MessageSchema,
} from "@sightline/contracts";
import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import {
  access,
  AppParams,
  AppScopeQuery,
  appScopeOf,
  ProjectParams,
  type ProjectScope,
  projectScopeOf,
  withParams,
} from "../access/index.js";
import type { ApiKeysService } from "./api-keys.service.js";

const KeyId = { key_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }) };

/** The two homes of keys: one route set each, the same service calls. */
const HOMES = [
  {
    prefix: "/projects/:project_slug",
    noun: "Project",
    params: ProjectParams,
    keyParams: withParams(ProjectParams, KeyId),
    querystring: undefined,
    declare: access.project("keys:manage"),
    scopeOf: (request: FastifyRequest): ProjectScope => projectScopeOf(request),
    listNote: "Project-wide keys, revoked ones included, newest first. App keys are listed under their app.",
    createNote:
      "The whole key is in this response only. At most 20 live keys per project (429 limit_reached).",
  },
  {
    prefix: "/apps/:app_slug",
    noun: "App",
    params: AppParams,
    keyParams: withParams(AppParams, KeyId),
    querystring: AppScopeQuery,
    declare: access.app("keys:manage"),
    scopeOf: (request: FastifyRequest): ProjectScope => appScopeOf(request),
    listNote: "Revoked keys included, newest first.",
    createNote:
      "The key may only ingest records of this app. The whole key is in this response only. At most 20 " +
      "live keys per project, app keys included (429 limit_reached).",
  },
] as const;

export async function apiKeysRoutes(app: App, { apiKeys }: { apiKeys: ApiKeysService }): Promise<void> {
  for (const home of HOMES) {
    const scope = home.querystring === undefined ? {} : { querystring: home.querystring };

    app.post(
      `${home.prefix}/api-keys`,
      {
        config: { access: home.declare },
        schema: {
          operationId: `create${home.noun}ApiKey`,
          tags: ["api-keys"],
          summary: `Create ${home.noun === "App" ? "an app" : "a project"} API key`,
          description: home.createNote,
          params: home.params,
          ...scope,
          body: CreateApiKeyBodySchema,
          response: { 201: CreatedApiKeySchema, ...problemResponses(422, 429) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await apiKeys.createKey(home.scopeOf(request), request.body)),
    );

    app.get(
      `${home.prefix}/api-keys`,
      {
        config: { access: home.declare },
        schema: {
          operationId: `list${home.noun}ApiKeys`,
          tags: ["api-keys"],
          summary: `List ${home.noun === "App" ? "an app's" : "a project's"} API keys`,
          description: home.listNote,
          params: home.params,
          ...scope,
          response: { 200: Type.Array(ApiKeyListItemSchema) },
        },
      },
      async (request) => apiKeys.listKeys(home.scopeOf(request)),
    );

    app.delete(
      `${home.prefix}/api-keys/:key_id`,
      {
        config: { access: home.declare },
        schema: {
          operationId: `revoke${home.noun}ApiKey`,
          tags: ["api-keys"],
          summary: `Revoke ${home.noun === "App" ? "an app" : "a project"} API key`,
          description: "Ingest with the key is refused at once. Revoking a revoked key again is harmless.",
          params: home.keyParams,
          ...scope,
          response: { 200: MessageSchema, ...problemResponses(422) },
        },
      },
      async (request) => {
        await apiKeys.revokeKey(home.scopeOf(request), request.params.key_id);
        return { message: "API key revoked" };
      },
    );
  }
}
