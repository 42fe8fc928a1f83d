// Routes of /apps/{app_slug}/environments: the app's configured and discovered environments.
import {
  CreateEnvironmentBodySchema,
  EnvironmentSchema,
  MessageSchema,
  UpdateEnvironmentBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { bearerSecurity, problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { AppParams, AppScopeQuery, appIdFor } from "../apps/app-scope.js";
import type { AppsService } from "../apps/apps.service.js";
import type { EnvironmentsService } from "./environments.service.js";

const EnvironmentParams = Type.Object({
  app_slug: Type.String({ maxLength: 200, examples: ["checkout-api"] }),
  env_slug: Type.String({ maxLength: 200, examples: ["production"] }),
});

export async function environmentsRoutes(
  app: App,
  { apps, environments }: { apps: AppsService; environments: EnvironmentsService },
): Promise<void> {
  app.addHook("onRequest", app.authenticate);
  const common = { security: bearerSecurity };

  app.get(
    "/apps/:app_slug/environments",
    {
      schema: {
        ...common,
        operationId: "listEnvironments",
        tags: ["environments"],
        summary: "List an app's environments",
        description: "Configured ones and those discovered from traffic, in display order.",
        params: AppParams,
        querystring: AppScopeQuery,
        response: { 200: Type.Array(EnvironmentSchema), ...problemResponses(401, 404, 409) },
      },
    },
    async (request) => environments.list(await appIdFor(apps, request, "read")),
  );

  app.post(
    "/apps/:app_slug/environments",
    {
      schema: {
        ...common,
        operationId: "createEnvironment",
        tags: ["environments"],
        summary: "Add an environment",
        description:
          "The name is trimmed and lower-cased like the `environment` of ingested records, so it matches " +
          "traffic. At most 20 per app (429 limit_reached).",
        params: AppParams,
        querystring: AppScopeQuery,
        body: CreateEnvironmentBodySchema,
        response: { 201: EnvironmentSchema, ...problemResponses(401, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const appId = await appIdFor(apps, request, "write");
      return reply.code(201).send(await environments.create(appId, request.body));
    },
  );

  app.patch(
    "/apps/:app_slug/environments/:env_slug",
    {
      schema: {
        ...common,
        operationId: "updateEnvironment",
        tags: ["environments"],
        summary: "Update an environment",
        params: EnvironmentParams,
        querystring: AppScopeQuery,
        body: UpdateEnvironmentBodySchema,
        response: { 200: EnvironmentSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const appId = await appIdFor(apps, request, "write");
      return environments.update(appId, request.params.env_slug, request.body);
    },
  );

  app.delete(
    "/apps/:app_slug/environments/:env_slug",
    {
      schema: {
        ...common,
        operationId: "deleteEnvironment",
        tags: ["environments"],
        summary: "Remove an environment",
        description: "Traffic that still names it registers it again (with the default colour).",
        params: EnvironmentParams,
        querystring: AppScopeQuery,
        response: { 200: MessageSchema, ...problemResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const appId = await appIdFor(apps, request, "write");
      await environments.remove(appId, request.params.env_slug);
      return { message: "Environment deleted" };
    },
  );
}
