// Routes of saved views under /projects/{slug}/saved-views: list (own and shared), get, save,
// change and delete one's own. Thin: schema + one service call.
import {
  CreateSavedViewBodySchema,
  MessageSchema,
  SAVED_VIEW_LIMITS,
  SavedViewSchema,
  SavedViewsQuerySchema,
  UpdateSavedViewBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf, withParams } from "../access/index.js";
import type { SavedViewsService } from "./saved-views.service.js";

const ViewParams = withParams(ProjectParams, {
  view_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});

export async function savedViewsRoutes(app: App, { savedViews }: { savedViews: SavedViewsService }) {
  app.get(
    "/projects/:project_slug/saved-views",
    {
      config: { access: access.project("data:read") },
      schema: {
        operationId: "listSavedViews",
        tags: ["saved-views"],
        summary: "List the caller's saved views and the project's shared ones",
        description: "By page, then name. `page` keeps the views of one dashboard page.",
        params: ProjectParams,
        querystring: SavedViewsQuerySchema,
        response: { 200: Type.Array(SavedViewSchema), ...problemResponses(422) },
      },
    },
    async (request) => savedViews.list(projectScopeOf(request), request.query),
  );

  app.post(
    "/projects/:project_slug/saved-views",
    {
      config: { access: access.project("views:write") },
      schema: {
        operationId: "createSavedView",
        tags: ["saved-views"],
        summary: "Save a page's filters under a name",
        description:
          "The view belongs to the caller; with `shared` the project's members see it too (and may apply " +
          `it, not change it). At most ${SAVED_VIEW_LIMITS.viewsPerUser} views per person and project ` +
          "(429 limit_reached).",
        params: ProjectParams,
        body: CreateSavedViewBodySchema,
        response: { 201: SavedViewSchema, ...problemResponses(422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await savedViews.create(projectScopeOf(request), request.body)),
  );

  app.get(
    "/projects/:project_slug/saved-views/:view_id",
    {
      config: { access: access.project("data:read") },
      schema: {
        operationId: "getSavedView",
        tags: ["saved-views"],
        summary: "Get a saved view (the caller's own or a shared one)",
        params: ViewParams,
        response: { 200: SavedViewSchema, ...problemResponses(422) },
      },
    },
    async (request) => savedViews.get(projectScopeOf(request), request.params.view_id),
  );

  app.patch(
    "/projects/:project_slug/saved-views/:view_id",
    {
      config: { access: access.project("views:write") },
      schema: {
        operationId: "updateSavedView",
        tags: ["saved-views"],
        summary: "Rename, re-filter, share or unshare one's own saved view",
        description: "Another member's shared view answers 403 forbidden.",
        params: ViewParams,
        body: UpdateSavedViewBodySchema,
        response: { 200: SavedViewSchema, ...problemResponses(422) },
      },
    },
    async (request) => savedViews.update(projectScopeOf(request), request.params.view_id, request.body),
  );

  app.delete(
    "/projects/:project_slug/saved-views/:view_id",
    {
      config: { access: access.project("views:write") },
      schema: {
        operationId: "deleteSavedView",
        tags: ["saved-views"],
        summary: "Delete one's own saved view",
        description: "Another member's shared view answers 403 forbidden.",
        params: ViewParams,
        response: { 200: MessageSchema, ...problemResponses(422) },
      },
    },
    async (request) => savedViews.delete(projectScopeOf(request), request.params.view_id),
  );
}
