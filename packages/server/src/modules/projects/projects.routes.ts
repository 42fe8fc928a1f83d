// Routes of /projects: the project itself, its apps and its API keys (spec 4.4).
import {
  ApiKeyListItemSchema,
  AppListItemSchema,
  AppSchema,
  CreateApiKeyBodySchema,
  CreateAppBodySchema,
  CreatedApiKeySchema,
  CreateProjectBodySchema,
  MessageSchema,
  ProjectListItemSchema,
  ProjectSchema,
  UpdateAppBodySchema,
  UpdateProjectBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { requireAuth } from "../../http/bearer-auth.js";
import { bearerSecurity, problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import type { ApiKeysService } from "../api-keys/api-keys.service.js";
import { type AppsService, toApp } from "../apps/apps.service.js";
import type { ProjectsService } from "./projects.service.js";

export interface ProjectsRoutesOptions {
  readonly projects: ProjectsService;
  readonly apps: AppsService;
  readonly apiKeys: ApiKeysService;
}

const ProjectParams = Type.Object({ project_slug: Type.String({ maxLength: 200, examples: ["shop"] }) });
const ProjectAppParams = Type.Object({
  project_slug: Type.String({ maxLength: 200, examples: ["shop"] }),
  app_slug: Type.String({ maxLength: 200, examples: ["checkout-api"] }),
});
const ProjectKeyParams = Type.Object({
  project_slug: Type.String({ maxLength: 200, examples: ["shop"] }),
  key_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});

export async function projectsRoutes(
  app: App,
  { projects, apps, apiKeys }: ProjectsRoutesOptions,
): Promise<void> {
  app.addHook("onRequest", app.authenticate);
  const common = { security: bearerSecurity };

  app.post(
    "/projects",
    {
      schema: {
        ...common,
        operationId: "createProject",
        tags: ["projects"],
        summary: "Create a project",
        description:
          "The caller becomes its owner. Without `slug`, one is generated from the name (a numeric suffix " +
          "is added when taken). A given slug that is reserved answers 422, one that is taken 409.",
        body: CreateProjectBodySchema,
        response: { 201: ProjectSchema, ...problemResponses(401, 409, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await projects.createProject(requireAuth(request).userId, request.body)),
  );

  app.get(
    "/projects",
    {
      schema: {
        ...common,
        operationId: "listProjects",
        tags: ["projects"],
        summary: "List the projects the caller can access",
        response: { 200: Type.Array(ProjectListItemSchema), ...problemResponses(401) },
      },
    },
    async (request) => projects.listProjects(requireAuth(request).userId),
  );

  app.get(
    "/projects/:project_slug",
    {
      schema: {
        ...common,
        operationId: "getProject",
        tags: ["projects"],
        summary: "Get a project",
        params: ProjectParams,
        response: { 200: ProjectSchema, ...problemResponses(401, 404) },
      },
    },
    async (request) => projects.getProject(requireAuth(request).userId, request.params.project_slug),
  );

  app.patch(
    "/projects/:project_slug",
    {
      schema: {
        ...common,
        operationId: "updateProject",
        tags: ["projects"],
        summary: "Rename, describe or re-slug a project",
        params: ProjectParams,
        body: UpdateProjectBodySchema,
        response: { 200: ProjectSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request) =>
      projects.updateProject(requireAuth(request).userId, request.params.project_slug, request.body),
  );

  app.delete(
    "/projects/:project_slug",
    {
      schema: {
        ...common,
        operationId: "deleteProject",
        tags: ["projects"],
        summary: "Delete a project",
        description:
          "Soft delete: the project, all its apps and all its API keys go in one transaction, and ingest " +
          "with its keys is refused at once. Its slug becomes free; its telemetry stays until retention ends.",
        params: ProjectParams,
        response: { 200: MessageSchema, ...problemResponses(401, 404) },
      },
    },
    async (request) => {
      await projects.deleteProject(requireAuth(request).userId, request.params.project_slug);
      return { message: "Project deleted" };
    },
  );

  // ---- apps of a project ----

  app.get(
    "/projects/:project_slug/apps",
    {
      schema: {
        ...common,
        operationId: "listProjectApps",
        tags: ["apps"],
        summary: "List the apps of a project",
        params: ProjectParams,
        response: { 200: Type.Array(AppListItemSchema), ...problemResponses(401, 404) },
      },
    },
    async (request) => apps.listInProject(requireAuth(request).userId, request.params.project_slug),
  );

  app.post(
    "/projects/:project_slug/apps",
    {
      schema: {
        ...common,
        operationId: "createProjectApp",
        tags: ["apps"],
        summary: "Create an app in a project",
        params: ProjectParams,
        body: CreateAppBodySchema,
        response: { 201: AppSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await apps.createInProject(requireAuth(request).userId, request.params.project_slug, request.body),
        ),
  );

  app.get(
    "/projects/:project_slug/apps/:app_slug",
    {
      schema: {
        ...common,
        operationId: "getProjectApp",
        tags: ["apps"],
        summary: "Get an app of a project",
        params: ProjectAppParams,
        response: { 200: AppSchema, ...problemResponses(401, 404) },
      },
    },
    async (request) => {
      const { project_slug, app_slug } = request.params;
      const { app: row } = await apps.resolveInProject(
        requireAuth(request).userId,
        project_slug,
        app_slug,
        "read",
      );
      return toApp(row);
    },
  );

  app.patch(
    "/projects/:project_slug/apps/:app_slug",
    {
      schema: {
        ...common,
        operationId: "updateProjectApp",
        tags: ["apps"],
        summary: "Update an app of a project",
        params: ProjectAppParams,
        body: UpdateAppBodySchema,
        response: { 200: AppSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const { project_slug, app_slug } = request.params;
      const resolved = await apps.resolveInProject(
        requireAuth(request).userId,
        project_slug,
        app_slug,
        "write",
      );
      return apps.update(resolved, request.body);
    },
  );

  app.delete(
    "/projects/:project_slug/apps/:app_slug",
    {
      schema: {
        ...common,
        operationId: "deleteProjectApp",
        tags: ["apps"],
        summary: "Delete an app of a project",
        description:
          "Soft delete; the app's own keys are revoked. Project keys stay valid for the other apps.",
        params: ProjectAppParams,
        response: { 200: MessageSchema, ...problemResponses(401, 404) },
      },
    },
    async (request) => {
      const { project_slug, app_slug } = request.params;
      await apps.remove(
        await apps.resolveInProject(requireAuth(request).userId, project_slug, app_slug, "write"),
      );
      return { message: "App deleted" };
    },
  );

  // ---- API keys of a project ----

  app.post(
    "/projects/:project_slug/api-keys",
    {
      schema: {
        ...common,
        operationId: "createProjectApiKey",
        tags: ["api-keys"],
        summary: "Create a project API key",
        description:
          "The whole key is in this response only. At most 20 live keys per project (429 limit_reached).",
        params: ProjectParams,
        body: CreateApiKeyBodySchema,
        response: { 201: CreatedApiKeySchema, ...problemResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const project = await projects.resolve(
        requireAuth(request).userId,
        request.params.project_slug,
        "admin",
      );
      return reply
        .code(201)
        .send(await apiKeys.createKey({ projectId: project.id, appId: null }, request.body));
    },
  );

  app.get(
    "/projects/:project_slug/api-keys",
    {
      schema: {
        ...common,
        operationId: "listProjectApiKeys",
        tags: ["api-keys"],
        summary: "List a project's API keys",
        description:
          "Project-wide keys, revoked ones included, newest first. App keys are listed under their app.",
        params: ProjectParams,
        response: { 200: Type.Array(ApiKeyListItemSchema), ...problemResponses(401, 404) },
      },
    },
    async (request) => {
      const project = await projects.resolve(
        requireAuth(request).userId,
        request.params.project_slug,
        "admin",
      );
      return apiKeys.listKeys({ projectId: project.id, appId: null });
    },
  );

  app.delete(
    "/projects/:project_slug/api-keys/:key_id",
    {
      schema: {
        ...common,
        operationId: "revokeProjectApiKey",
        tags: ["api-keys"],
        summary: "Revoke a project API key",
        description: "Ingest with the key is refused at once. Revoking a revoked key again is harmless.",
        params: ProjectKeyParams,
        response: { 200: MessageSchema, ...problemResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const project = await projects.resolve(
        requireAuth(request).userId,
        request.params.project_slug,
        "admin",
      );
      await apiKeys.revokeKey({ projectId: project.id, appId: null }, request.params.key_id);
      return { message: "API key revoked" };
    },
  );
}
