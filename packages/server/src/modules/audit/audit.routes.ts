// Route of a project's audit log: who did what and when, newest first, one page at a time.
import { AuditLogPageSchema, AuditLogQuerySchema } from "@sightline/contracts";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf } from "../access/index.js";
import type { AuditService } from "./audit.service.js";

export async function auditRoutes(app: App, { audit }: { audit: AuditService }): Promise<void> {
  app.get(
    "/projects/:project_slug/audit-log",
    {
      config: { access: access.project("audit:read") },
      schema: {
        operationId: "listAuditEvents",
        tags: ["audit"],
        summary: "The project's audit log",
        description:
          "Keys created and revoked; members invited, joined, removed, left and role-changed; invitations " +
          "revoked and declined; apps and environments created and deleted; project settings changed; " +
          "ownership transferred. Newest first; `page_size` above 200 is served as 200.",
        params: ProjectParams,
        querystring: AuditLogQuerySchema,
        response: { 200: AuditLogPageSchema, ...problemResponses(422) },
      },
    },
    async (request) => audit.page(projectScopeOf(request), request.query),
  );
}
