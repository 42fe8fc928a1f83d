// Routes of /projects: the project itself (spec 4.4). Apps, keys and members of a project have
// route files of their own.
import {
  CreateProjectBodySchema,
  MessageSchema,
  ProjectListItemSchema,
  ProjectSchema,
  UpdateProjectBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { projectsReachedBy, requireAuth } from "../../http/bearer-auth.js";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf } from "../access/index.js";
import type { ProjectsService } from "./projects.service.js";

export async function projectsRoutes(app: App, { projects }: { projects: ProjectsService }): Promise<void> {
  app.post(
    "/projects",
    {
      config: { access: access.user },
      schema: {
        operationId: "createProject",
        tags: ["projects"],
        summary: "Create a project",
        description:
          "The caller becomes its owner. Without `slug`, one is generated from the name (a numeric suffix " +
          "is added when taken). A given slug that is reserved answers 422, one that is taken 409.",
        body: CreateProjectBodySchema,
        response: { 201: ProjectSchema, ...problemResponses(409, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await projects.createProject(requireAuth(request).userId, request.body)),
  );

  app.get(
    "/projects",
    {
      config: { access: access.user },
      schema: {
        operationId: "listProjects",
        tags: ["projects"],
        summary: "List the projects the caller belongs to, with their role",
        response: { 200: Type.Array(ProjectListItemSchema) },
      },
    },
    async (request) => {
      const caller = requireAuth(request);
      return projects.listProjects(caller.userId, projectsReachedBy(caller));
    },
  );

  app.get(
    "/projects/:project_slug",
    {
      config: { access: access.project("project:read") },
      schema: {
        operationId: "getProject",
        tags: ["projects"],
        summary: "Get a project",
        params: ProjectParams,
        response: { 200: ProjectSchema },
      },
    },
    async (request) => projects.getProject(projectScopeOf(request)),
  );

  app.patch(
    "/projects/:project_slug",
    {
      config: { access: access.project("project:write") },
      schema: {
        operationId: "updateProject",
        tags: ["projects"],
        summary: "Rename, describe or re-slug a project",
        params: ProjectParams,
        body: UpdateProjectBodySchema,
        response: { 200: ProjectSchema, ...problemResponses(409, 422) },
      },
    },
    async (request) => projects.updateProject(projectScopeOf(request), request.body),
  );

  app.delete(
    "/projects/:project_slug",
    {
      config: { access: access.project("project:delete") },
      schema: {
        operationId: "deleteProject",
        tags: ["projects"],
        summary: "Delete a project",
        description:
          "Soft delete: the project, all its apps and all its API keys go in one transaction, and ingest " +
          "with its keys is refused at once. Its slug becomes free; its telemetry stays until retention ends.",
        params: ProjectParams,
        response: { 200: MessageSchema },
      },
    },
    async (request) => {
      await projects.deleteProject(projectScopeOf(request));
      return { message: "Project deleted" };
    },
  );
}
