// Routes of /apps (spec 4.5): every app the caller can access, addressed by its slug.
import {
  AccessibleAppSchema,
  AppSchema,
  CreateAppInProjectBodySchema,
  MessageSchema,
  UpdateAppBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { requireAuth } from "../../http/bearer-auth.js";
import { bearerSecurity, problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { AppParams, AppScopeQuery, resolveAppFor } from "./app-scope.js";
import { type AppsService, toApp } from "./apps.service.js";

export async function appsRoutes(app: App, { apps }: { apps: AppsService }): Promise<void> {
  app.addHook("onRequest", app.authenticate);
  const common = { security: bearerSecurity };

  app.post(
    "/apps",
    {
      schema: {
        ...common,
        operationId: "createApp",
        tags: ["apps"],
        summary: "Create an app in one of your projects",
        body: CreateAppInProjectBodySchema,
        response: { 201: AppSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { project_slug, ...body } = request.body;
      return reply
        .code(201)
        .send(await apps.createViaProjectSlug(requireAuth(request).userId, project_slug, body));
    },
  );

  app.get(
    "/apps",
    {
      schema: {
        ...common,
        operationId: "listApps",
        tags: ["apps"],
        summary: "List every app you can access, across projects",
        response: { 200: Type.Array(AccessibleAppSchema), ...problemResponses(401) },
      },
    },
    async (request) => apps.listAccessible(requireAuth(request).userId),
  );

  app.get(
    "/apps/:app_slug",
    {
      schema: {
        ...common,
        operationId: "getApp",
        tags: ["apps"],
        summary: "Get an app",
        params: AppParams,
        querystring: AppScopeQuery,
        response: { 200: AppSchema, ...problemResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const resolved = await resolveAppFor(apps, request, "read");
      return toApp(resolved.app);
    },
  );

  app.patch(
    "/apps/:app_slug",
    {
      schema: {
        ...common,
        operationId: "updateApp",
        tags: ["apps"],
        summary: "Update an app",
        description: "Renaming never changes the slug; send `slug` to change it.",
        params: AppParams,
        querystring: AppScopeQuery,
        body: UpdateAppBodySchema,
        response: { 200: AppSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const resolved = await resolveAppFor(apps, request, "write");
      return apps.update(resolved, request.body);
    },
  );

  app.delete(
    "/apps/:app_slug",
    {
      schema: {
        ...common,
        operationId: "deleteApp",
        tags: ["apps"],
        summary: "Delete an app",
        description: "Soft delete; the app's own keys are revoked at once.",
        params: AppParams,
        querystring: AppScopeQuery,
        response: { 200: MessageSchema, ...problemResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const resolved = await resolveAppFor(apps, request, "write");
      await apps.remove(resolved);
      return { message: "App deleted" };
    },
  );
}
