// Wire shapes of teams: a project's members, invitations (sent and received), ownership
// transfer and the audit log.
import { type Static, Type } from "typebox";
import { DATA_PAGING, PageParam, pagedSchema, pageSizeParam } from "./data.js";
import { RoleSchema } from "./roles.js";

const Uuid = Type.String({ format: "uuid", examples: ["0b6f7c1e-3d2a-4f8e-9b1c-5a7d2e4f6a81"] });
const Timestamp = Type.String({ format: "date-time", examples: ["2026-11-21T06:00:00.000Z"] });
const Email = Type.String({ examples: ["grace@example.com"] });

/** Invitations last this long; the e-mailed link works once within it. */
export const INVITATION_TTL_DAYS = 7;

/** Roles an invitation may carry: every role; only owners may invite owners. */
const InvitableRole = RoleSchema;

/** A person as other people see them: a deleted account shows an empty e-mail. */
export const UserRefSchema = Type.Object(
  {
    user_id: Uuid,
    email: Type.String({ description: "Empty once the account is deleted.", examples: ["ada@example.com"] }),
    name: Type.String({ examples: ["Ada Lovelace"] }),
  },
  { additionalProperties: false },
);
export type UserRef = Static<typeof UserRefSchema>;

// ---- members ----

export const MemberSchema = Type.Object(
  {
    user_id: Uuid,
    email: Email,
    name: Type.String({ description: "Display name.", examples: ["Grace Hopper"] }),
    picture_url: Type.String({
      description: "URL of the profile picture, or an empty string when none is set.",
      examples: [""],
    }),
    role: RoleSchema,
    joined_at: Timestamp,
  },
  { additionalProperties: false },
);
export type Member = Static<typeof MemberSchema>;

export const MembersSchema = Type.Object(
  {
    members: Type.Array(MemberSchema, {
      description: "Owners first, then admins, members and viewers; each by joining time.",
    }),
  },
  { additionalProperties: false },
);
export type Members = Static<typeof MembersSchema>;

export const MemberParamsSchema = Type.Object({
  project_slug: Type.String({ maxLength: 200, examples: ["shop"] }),
  user_id: Uuid,
});

export const UpdateMemberBodySchema = Type.Object({ role: RoleSchema }, { additionalProperties: false });
export type UpdateMemberBody = Static<typeof UpdateMemberBodySchema>;

export const TransferOwnershipBodySchema = Type.Object(
  { user_id: Type.String({ ...Uuid, description: "A member of the project; they become an owner." }) },
  { additionalProperties: false },
);
export type TransferOwnershipBody = Static<typeof TransferOwnershipBodySchema>;

// ---- invitations ----

export const CreateInvitationBodySchema = Type.Object(
  {
    email: Type.String({ format: "email", maxLength: 254, examples: ["grace@example.com"] }),
    role: InvitableRole,
  },
  { additionalProperties: false },
);
export type CreateInvitationBody = Static<typeof CreateInvitationBodySchema>;

export const InvitationSchema = Type.Object(
  {
    id: Uuid,
    email: Email,
    role: RoleSchema,
    invited_by: UserRefSchema,
    created_at: Timestamp,
    expires_at: Timestamp,
  },
  { additionalProperties: false },
);
export type Invitation = Static<typeof InvitationSchema>;

export const InvitationsSchema = Type.Object(
  { invitations: Type.Array(InvitationSchema, { description: "Pending ones, newest first." }) },
  { additionalProperties: false },
);
export type Invitations = Static<typeof InvitationsSchema>;

export const InvitationParamsSchema = Type.Object({
  project_slug: Type.String({ maxLength: 200, examples: ["shop"] }),
  invitation_id: Uuid,
});

const ProjectRefSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String({ examples: ["Shop"] }),
    slug: Type.String({ examples: ["shop"] }),
  },
  { additionalProperties: false },
);

export const ReceivedInvitationSchema = Type.Object(
  {
    id: Uuid,
    project: ProjectRefSchema,
    role: RoleSchema,
    invited_by: UserRefSchema,
    created_at: Timestamp,
    expires_at: Timestamp,
  },
  { additionalProperties: false },
);
export type ReceivedInvitation = Static<typeof ReceivedInvitationSchema>;

export const ReceivedInvitationsSchema = Type.Object(
  {
    invitations: Type.Array(ReceivedInvitationSchema, {
      description: "Pending invitations addressed to the caller's e-mail address, newest first.",
    }),
  },
  { additionalProperties: false },
);
export type ReceivedInvitations = Static<typeof ReceivedInvitationsSchema>;

export const AnswerInvitationBodySchema = Type.Object(
  {
    token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The token of the e-mailed link (`…/invitations/accept?token=…`).",
        examples: ["pGqk1W0d7oQv3cXyZb2nN8uT5rLs4eMa9hJ6fKiD0wE"],
      }),
    ),
    id: Type.Optional(
      Type.String({
        ...Uuid,
        description: "Or the id of an invitation in `GET /users/invitations`.",
      }),
    ),
  },
  { additionalProperties: false, description: "Exactly one of `token` and `id`." },
);
export type AnswerInvitationBody = Static<typeof AnswerInvitationBodySchema>;

export const AcceptedInvitationSchema = Type.Object(
  {
    message: Type.String({ examples: ["You joined Shop as member."] }),
    project: ProjectRefSchema,
    role: RoleSchema,
  },
  { additionalProperties: false },
);
export type AcceptedInvitation = Static<typeof AcceptedInvitationSchema>;

// ---- audit log ----

export const AUDIT_ACTIONS = [
  "project.created",
  "project.updated",
  "project.ownership_transferred",
  "project.retention_changed",
  "app.created",
  "app.deleted",
  "environment.created",
  "environment.deleted",
  "api_key.created",
  "api_key.revoked",
  "member.invited",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "member.left",
  "invitation.revoked",
  "invitation.declined",
  "alert_rule.created",
  "alert_rule.updated",
  "alert_rule.deleted",
  "notification_channel.created",
  "notification_channel.updated",
  "notification_channel.deleted",
  "slo.created",
  "slo.updated",
  "slo.deleted",
  "token.used",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEventSchema = Type.Object(
  {
    id: Uuid,
    action: Type.Enum(AUDIT_ACTIONS, { examples: ["member.role_changed"] }),
    actor: Type.Union([UserRefSchema, Type.Null()], {
      description: "Who did it; null for changes the system made.",
    }),
    target: Type.Object(
      {
        type: Type.String({ examples: ["member"] }),
        id: Type.String({ examples: ["0b6f7c1e-3d2a-4f8e-9b1c-5a7d2e4f6a81"] }),
        label: Type.String({ description: "Its name when it happened.", examples: ["grace@example.com"] }),
      },
      { additionalProperties: false },
    ),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What changed, e.g. `{from: "viewer", to: "admin"}` for a role change.',
      examples: [{ from: "viewer", to: "admin" }],
    }),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);
export type AuditEvent = Static<typeof AuditEventSchema>;

export const AuditLogQuerySchema = Type.Object(
  {
    page: Type.Optional(PageParam),
    page_size: Type.Optional(pageSizeParam(DATA_PAGING.defaultPageSize, DATA_PAGING.maxPageSize)),
  },
  { additionalProperties: false },
);
export type AuditLogQuery = Static<typeof AuditLogQuerySchema>;

export const AuditLogPageSchema = pagedSchema(AuditEventSchema);
export type AuditLogPage = Static<typeof AuditLogPageSchema>;
