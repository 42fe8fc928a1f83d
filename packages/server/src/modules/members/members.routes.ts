// Routes of a project's members: the list, role changes, removal (or leaving) and ownership
// transfer. Invitations have their own route file.
import {
  MemberParamsSchema,
  MemberSchema,
  MembersSchema,
  MessageSchema,
  TransferOwnershipBodySchema,
  UpdateMemberBodySchema,
} from "@sightline/contracts";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf } from "../access/index.js";
import type { MembersService } from "./members.service.js";

export async function membersRoutes(app: App, { members }: { members: MembersService }): Promise<void> {
  app.get(
    "/projects/:project_slug/members",
    {
      config: { access: access.project("project:read") },
      schema: {
        operationId: "listMembers",
        tags: ["members"],
        summary: "List the project's members and their roles",
        params: ProjectParams,
        response: { 200: MembersSchema },
      },
    },
    async (request) => members.list(projectScopeOf(request)),
  );

  app.patch(
    "/projects/:project_slug/members/:user_id",
    {
      config: { access: access.project("members:manage") },
      schema: {
        operationId: "updateMember",
        tags: ["members"],
        summary: "Change a member's role",
        description:
          "Only owners may change an owner's role or make someone an owner (403 otherwise). The last " +
          "owner cannot be demoted (409). The new role applies to the member's next request.",
        params: MemberParamsSchema,
        body: UpdateMemberBodySchema,
        response: { 200: MemberSchema, ...problemResponses(409, 422) },
      },
    },
    async (request) => members.changeRole(projectScopeOf(request), request.params.user_id, request.body.role),
  );

  app.delete(
    "/projects/:project_slug/members/:user_id",
    {
      config: { access: access.project("project:leave") },
      schema: {
        operationId: "removeMember",
        tags: ["members"],
        summary: "Remove a member, or leave the project",
        description:
          "With your own user id, you leave the project (any role; not as its last owner: 409). Removing " +
          "someone else needs `members:manage`, and removing an owner `owners:manage` (403 otherwise). " +
          "Access ends at once: the removed member's next request answers 404.",
        params: MemberParamsSchema,
        response: { 200: MessageSchema, ...problemResponses(409, 422) },
      },
    },
    async (request) => {
      const scope = projectScopeOf(request);
      await members.remove(scope, request.params.user_id);
      return { message: request.params.user_id === scope.userId ? "You left the project" : "Member removed" };
    },
  );

  app.post(
    "/projects/:project_slug/transfer-ownership",
    {
      config: { access: access.project("project:transfer") },
      schema: {
        operationId: "transferOwnership",
        tags: ["members"],
        summary: "Hand the project to another member",
        description:
          "The member becomes an owner and you become an admin, in one step. `user_id` must be another " +
          "member of the project (422 otherwise). Answers the members after the change.",
        params: ProjectParams,
        body: TransferOwnershipBodySchema,
        response: { 200: MembersSchema, ...problemResponses(422) },
      },
    },
    async (request) => members.transferOwnership(projectScopeOf(request), request.body),
  );
}
