// Routes of invitations: a project's (send, list, revoke) and the signed-in person's (the ones
// addressed to them, accept, decline).
import {
  AcceptedInvitationSchema,
  AnswerInvitationBodySchema,
  CreateInvitationBodySchema,
  InvitationParamsSchema,
  InvitationSchema,
  InvitationsSchema,
  MessageSchema,
  ReceivedInvitationsSchema,
} from "@sightline/contracts";
import { requireAuth } from "../../http/bearer-auth.js";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf } from "../access/index.js";
import type { InvitationsService } from "./invitations.service.js";

export async function invitationsRoutes(
  app: App,
  { invitations }: { invitations: InvitationsService },
): Promise<void> {
  const manage = { access: access.project("members:manage") };

  app.post(
    "/projects/:project_slug/invitations",
    {
      config: manage,
      schema: {
        operationId: "createInvitation",
        tags: ["invitations"],
        summary: "Invite someone to the project by e-mail",
        description:
          "E-mails a link `PUBLIC_URL/invitations/accept?token=…` that works once, for 7 days. Inviting an " +
          "address again replaces its pending invitation (the earlier link stops working); inviting a " +
          "member answers 409; only owners may invite owners. At most 30 invitations per hour per " +
          "inviting user and 10 per hour per address (429 with Retry-After).",
        params: ProjectParams,
        body: CreateInvitationBodySchema,
        response: { 201: InvitationSchema, ...problemResponses(409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await invitations.create(projectScopeOf(request), request.body)),
  );

  app.get(
    "/projects/:project_slug/invitations",
    {
      config: manage,
      schema: {
        operationId: "listInvitations",
        tags: ["invitations"],
        summary: "List the project's pending invitations",
        params: ProjectParams,
        response: { 200: InvitationsSchema },
      },
    },
    async (request) => invitations.list(projectScopeOf(request)),
  );

  app.delete(
    "/projects/:project_slug/invitations/:invitation_id",
    {
      config: manage,
      schema: {
        operationId: "revokeInvitation",
        tags: ["invitations"],
        summary: "Revoke a pending invitation",
        description: "Its link stops working at once. Only owners may revoke an invitation to be owner.",
        params: InvitationParamsSchema,
        response: { 200: MessageSchema, ...problemResponses(422) },
      },
    },
    async (request) => {
      await invitations.revoke(projectScopeOf(request), request.params.invitation_id);
      return { message: "Invitation revoked" };
    },
  );

  app.get(
    "/users/invitations",
    {
      config: { access: access.user },
      schema: {
        operationId: "listReceivedInvitations",
        tags: ["invitations"],
        summary: "Invitations addressed to you",
        description: "Pending invitations to your e-mail address (compared case-insensitively).",
        response: { 200: ReceivedInvitationsSchema },
      },
    },
    async (request) => invitations.listReceived(requireAuth(request)),
  );

  const answer =
    "Send the `token` of the e-mailed link, or the `id` of an invitation listed by `GET /users/invitations`. " +
    "The invitation must be addressed to your e-mail address: a token sent to another address answers 403 " +
    "(sign in with that address; a person without an account signs in by magic link first). A used, " +
    "revoked, replaced or expired invitation answers 404.";

  app.post(
    "/invitations/accept",
    {
      config: { access: access.user },
      schema: {
        operationId: "acceptInvitation",
        tags: ["invitations"],
        summary: "Accept an invitation and join its project",
        description: `${answer} Already a member: 409.`,
        body: AnswerInvitationBodySchema,
        response: { 200: AcceptedInvitationSchema, ...problemResponses(403, 404, 409, 422) },
      },
    },
    async (request) => invitations.accept(requireAuth(request), request.body),
  );

  app.post(
    "/invitations/decline",
    {
      config: { access: access.user },
      schema: {
        operationId: "declineInvitation",
        tags: ["invitations"],
        summary: "Decline an invitation",
        description: answer,
        body: AnswerInvitationBodySchema,
        response: { 200: MessageSchema, ...problemResponses(403, 404, 422) },
      },
    },
    async (request) => invitations.decline(requireAuth(request), request.body),
  );
}
