// Routes of /projects/{slug}/retention: how long the project keeps each kind of record.
import { ProjectRetentionSchema, UpdateProjectRetentionBodySchema } from "@sightline/contracts";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf } from "../access/index.js";
import type { RetentionService } from "./retention.service.js";

export async function retentionRoutes(
  app: App,
  { retention }: { retention: RetentionService },
): Promise<void> {
  app.get(
    "/projects/:project_slug/retention",
    {
      config: { access: access.project("project:read") },
      schema: {
        operationId: "getProjectRetention",
        tags: ["projects"],
        summary: "How many days the project keeps each kind of record",
        params: ProjectParams,
        response: { 200: ProjectRetentionSchema },
      },
    },
    async (request) => retention.getRetention(projectScopeOf(request)),
  );

  app.patch(
    "/projects/:project_slug/retention",
    {
      config: { access: access.project("project:write") },
      schema: {
        operationId: "updateProjectRetention",
        tags: ["projects"],
        summary: "Change how many days the project keeps requests, logs, spans or its analytics rollups",
        description:
          "Each value is at most the server's maximum (`max`; above it answers 422). Applies to records " +
          "and rollup rows stored from now on; the records lists (and, for `rollups_days`, analytics) " +
          "stop at the new days at once. Nothing stored is rewritten.",
        params: ProjectParams,
        body: UpdateProjectRetentionBodySchema,
        response: { 200: ProjectRetentionSchema, ...problemResponses(422) },
      },
    },
    async (request) => retention.updateRetention(projectScopeOf(request), request.body),
  );
}
