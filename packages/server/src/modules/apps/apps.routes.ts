// Routes of apps: below their project (`/projects/{project_slug}/apps`, spec 4.4) and by slug
// across the caller's projects (`/apps`, spec 4.5).
import {
  AccessibleAppSchema,
  AppListItemSchema,
  AppSchema,
  CreateAppBodySchema,
  CreateAppInProjectBodySchema,
  MessageSchema,
  UpdateAppBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { projectsReachedBy, requireAuth } from "../../http/bearer-auth.js";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import {
  access,
  AppParams,
  AppScopeQuery,
  appScopeOf,
  ProjectAppParams,
  ProjectParams,
  projectScopeOf,
} from "../access/index.js";
import type { AppsService } from "./apps.service.js";

const DELETE_NOTE =
  "Soft delete; the app's own keys are revoked at once. Project keys stay valid for the other apps.";
const UPDATE_NOTE = "Renaming never changes the slug; send `slug` to change it.";

export async function appsRoutes(app: App, { apps }: { apps: AppsService }): Promise<void> {
  // ---- below a project ----

  app.get(
    "/projects/:project_slug/apps",
    {
      config: { access: access.project("project:read") },
      schema: {
        operationId: "listProjectApps",
        tags: ["apps"],
        summary: "List the apps of a project",
        params: ProjectParams,
        response: { 200: Type.Array(AppListItemSchema) },
      },
    },
    async (request) => apps.listInProject(projectScopeOf(request)),
  );

  app.post(
    "/projects/:project_slug/apps",
    {
      config: { access: access.project("apps:write") },
      schema: {
        operationId: "createProjectApp",
        tags: ["apps"],
        summary: "Create an app in a project",
        params: ProjectParams,
        body: CreateAppBodySchema,
        response: { 201: AppSchema, ...problemResponses(409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await apps.create(projectScopeOf(request), request.body)),
  );

  app.get(
    "/projects/:project_slug/apps/:app_slug",
    {
      config: { access: access.app("project:read") },
      schema: {
        operationId: "getProjectApp",
        tags: ["apps"],
        summary: "Get an app of a project",
        params: ProjectAppParams,
        response: { 200: AppSchema },
      },
    },
    async (request) => apps.get(appScopeOf(request)),
  );

  app.patch(
    "/projects/:project_slug/apps/:app_slug",
    {
      config: { access: access.app("apps:write") },
      schema: {
        operationId: "updateProjectApp",
        tags: ["apps"],
        summary: "Update an app of a project",
        description: UPDATE_NOTE,
        params: ProjectAppParams,
        body: UpdateAppBodySchema,
        response: { 200: AppSchema, ...problemResponses(409, 422) },
      },
    },
    async (request) => apps.update(appScopeOf(request), request.body),
  );

  app.delete(
    "/projects/:project_slug/apps/:app_slug",
    {
      config: { access: access.app("apps:write") },
      schema: {
        operationId: "deleteProjectApp",
        tags: ["apps"],
        summary: "Delete an app of a project",
        description: DELETE_NOTE,
        params: ProjectAppParams,
        response: { 200: MessageSchema },
      },
    },
    async (request) => {
      await apps.remove(appScopeOf(request));
      return { message: "App deleted" };
    },
  );

  // ---- across the caller's projects ----

  app.post(
    "/apps",
    {
      config: { access: access.project("apps:write", { projectIn: "body" }) },
      schema: {
        operationId: "createApp",
        tags: ["apps"],
        summary: "Create an app in one of your projects",
        description: "`project_slug` names the project.",
        body: CreateAppInProjectBodySchema,
        response: { 201: AppSchema, ...problemResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const { project_slug: _project, ...body } = request.body;
      return reply.code(201).send(await apps.create(projectScopeOf(request), body));
    },
  );

  app.get(
    "/apps",
    {
      config: { access: access.user },
      schema: {
        operationId: "listApps",
        tags: ["apps"],
        summary: "List every app of the projects you belong to",
        response: { 200: Type.Array(AccessibleAppSchema) },
      },
    },
    async (request) => {
      const caller = requireAuth(request);
      return apps.listAccessible(caller.userId, projectsReachedBy(caller));
    },
  );

  app.get(
    "/apps/:app_slug",
    {
      config: { access: access.app("project:read") },
      schema: {
        operationId: "getApp",
        tags: ["apps"],
        summary: "Get an app",
        params: AppParams,
        querystring: AppScopeQuery,
        response: { 200: AppSchema },
      },
    },
    async (request) => apps.get(appScopeOf(request)),
  );

  app.patch(
    "/apps/:app_slug",
    {
      config: { access: access.app("apps:write") },
      schema: {
        operationId: "updateApp",
        tags: ["apps"],
        summary: "Update an app",
        description: UPDATE_NOTE,
        params: AppParams,
        querystring: AppScopeQuery,
        body: UpdateAppBodySchema,
        response: { 200: AppSchema, ...problemResponses(409, 422) },
      },
    },
    async (request) => apps.update(appScopeOf(request), request.body),
  );

  app.delete(
    "/apps/:app_slug",
    {
      config: { access: access.app("apps:write") },
      schema: {
        operationId: "deleteApp",
        tags: ["apps"],
        summary: "Delete an app",
        description: DELETE_NOTE,
        params: AppParams,
        querystring: AppScopeQuery,
        response: { 200: MessageSchema },
      },
    },
    async (request) => {
      await apps.remove(appScopeOf(request));
      return { message: "App deleted" };
    },
  );
}
