// Routes of /apps/{app_slug}/environments: the app's configured and discovered environments.
import {
  CreateEnvironmentBodySchema,
  EnvironmentSchema,
  MessageSchema,
  UpdateEnvironmentBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, AppParams, AppScopeQuery, appScopeOf, withParams } from "../access/index.js";
import type { EnvironmentsService } from "./environments.service.js";

const EnvironmentParams = withParams(AppParams, {
  env_slug: Type.String({ maxLength: 200, examples: ["production"] }),
});

export async function environmentsRoutes(
  app: App,
  { environments }: { environments: EnvironmentsService },
): Promise<void> {
  app.get(
    "/apps/:app_slug/environments",
    {
      config: { access: access.app("project:read") },
      schema: {
        operationId: "listEnvironments",
        tags: ["environments"],
        summary: "List an app's environments",
        description: "Configured ones and those discovered from traffic, in display order.",
        params: AppParams,
        querystring: AppScopeQuery,
        response: { 200: Type.Array(EnvironmentSchema) },
      },
    },
    async (request) => environments.list(appScopeOf(request)),
  );

  app.post(
    "/apps/:app_slug/environments",
    {
      config: { access: access.app("environments:write") },
      schema: {
        operationId: "createEnvironment",
        tags: ["environments"],
        summary: "Add an environment",
        description:
          "The name is trimmed and lower-cased like the `environment` of ingested records, so it matches " +
          "traffic. At most 20 per app (429 limit_reached).",
        params: AppParams,
        querystring: AppScopeQuery,
        body: CreateEnvironmentBodySchema,
        response: { 201: EnvironmentSchema, ...problemResponses(422, 429) },
      },
    },
    async (request, reply) => {
      const scope = appScopeOf(request);
      return reply.code(201).send(await environments.create(scope, request.body));
    },
  );

  app.patch(
    "/apps/:app_slug/environments/:env_slug",
    {
      config: { access: access.app("environments:write") },
      schema: {
        operationId: "updateEnvironment",
        tags: ["environments"],
        summary: "Update an environment",
        params: EnvironmentParams,
        querystring: AppScopeQuery,
        body: UpdateEnvironmentBodySchema,
        response: { 200: EnvironmentSchema, ...problemResponses(422) },
      },
    },
    async (request) => {
      const scope = appScopeOf(request);
      return environments.update(scope, request.params.env_slug, request.body);
    },
  );

  app.delete(
    "/apps/:app_slug/environments/:env_slug",
    {
      config: { access: access.app("environments:write") },
      schema: {
        operationId: "deleteEnvironment",
        tags: ["environments"],
        summary: "Remove an environment",
        description: "Traffic that still names it registers it again (with the default colour).",
        params: EnvironmentParams,
        querystring: AppScopeQuery,
        response: { 200: MessageSchema },
      },
    },
    async (request) => {
      const scope = appScopeOf(request);
      await environments.remove(scope, request.params.env_slug);
      return { message: "Environment deleted" };
    },
  );
}
