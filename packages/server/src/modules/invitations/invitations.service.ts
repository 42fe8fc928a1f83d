// Invitations: an admin or owner invites an address with a role; the e-mailed link (single use,
// 7 days, only its SHA-256 stored) lets the person behind that address join, once signed in
// with it. Re-inviting replaces the pending invitation; inviting a member is a conflict.
import {
  type AcceptedInvitation,
  type AnswerInvitationBody,
  type CreateInvitationBody,
  INVITATION_TTL_DAYS,
  type Invitation,
  type Invitations,
  type Message,
  parseRole,
  type ReceivedInvitations,
  type Role,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import type { Caller } from "../../http/bearer-auth.js";
import { newId } from "../../lib/ids.js";
import { userRefOf } from "../../lib/user-ref.js";
import {
  createInvitationsRepo,
  type InvitationDetailRow,
} from "../../stores/metadata/repos/invitations.repo.js";
import { createMembersRepo } from "../../stores/metadata/repos/members.repo.js";
import { createUsersRepo } from "../../stores/metadata/repos/users.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { assertCan, type ProjectScope, reauthorize } from "../access/index.js";
import type { AuditTrail } from "../audit/index.js";
import { createOpaqueToken, hashToken, type MailQueue } from "../auth/index.js";
import type { RateLimiter, RateLimitRule } from "../rate-limits/index.js";
import { invitationMail } from "./invitation-mail.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Bounds the mail one account can make Sightline send, across all its projects. */
const INVITES_PER_INVITER: RateLimitRule = { name: "invitations-inviter", limit: 30, windowSeconds: 3600 };
/** Bounds the mail one address receives, whoever invites it. */
const INVITES_PER_ADDRESS: RateLimitRule = { name: "invitations-address", limit: 10, windowSeconds: 3600 };

export interface InvitationsServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly rateLimiter: RateLimiter;
  readonly mail: MailQueue;
  /** PUBLIC_URL: links point at `${publicUrl}/invitations/accept?token=…`. */
  readonly publicUrl: string;
}

function toInvitation(row: InvitationDetailRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    invited_by: inviterOf(row),
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

function inviterOf(row: InvitationDetailRow) {
  return userRefOf({
    id: row.invited_by,
    email: row.inviter_email,
    first_name: row.inviter_first_name,
    last_name: row.inviter_last_name,
  });
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();
const invalidInvitation = () =>
  new AppError(
    "not_found",
    "This invitation is not valid: it was used, declined, revoked or replaced by a newer one, or never existed.",
  );

export function createInvitationsService(deps: InvitationsServiceDeps) {
  const { db, clock, audit, rateLimiter, mail, publicUrl } = deps;
  const invitations = createInvitationsRepo(db);
  const nowIso = () => toIsoTimestamp(clock.now());

  /**
   * The pending invitation a body names (`token` or `id`) that the caller may answer: it must be
   * addressed to the caller's e-mail. By id, another address's invitation is simply not found.
   */
  async function answerable(caller: Caller, body: AnswerInvitationBody): Promise<InvitationDetailRow> {
    if ((body.token === undefined) === (body.id === undefined)) {
      throw new AppError("validation_error", "Send exactly one of `token` and `id`.", {
        errors: [
          {
            pointer: body.token === undefined ? "/token" : "/id",
            message: "send exactly one of token and id",
          },
        ],
      });
    }
    const row =
      body.token === undefined
        ? await invitations.findDetail(body.id as string)
        : await invitations.findDetailByHash(hashToken(body.token));
    const mine = row !== undefined && row.email === normaliseEmail(caller.email);
    if (row === undefined || (!mine && body.token === undefined)) throw invalidInvitation();
    if (!mine) {
      throw new AppError(
        "forbidden",
        "This invitation was sent to another e-mail address; sign in with that address to accept it.",
      );
    }
    if (row.expires_at <= nowIso()) {
      throw new AppError("not_found", "This invitation has expired; ask for a new one.");
    }
    return row;
  }

  return {
    async create(scope: ProjectScope, body: CreateInvitationBody): Promise<Invitation> {
      if (body.role === "owner") assertCan(scope, "owners:manage", "inviting an owner");
      const email = normaliseEmail(body.email);
      const { project } = scope;
      const invitee = await createUsersRepo(db).findLiveByEmail(email);
      if (invitee !== undefined && (await createMembersRepo(db).find(project.id, invitee.id)) !== undefined) {
        throw new AppError("conflict", `${email} is already a member of this project.`);
      }
      await rateLimiter.consume(
        INVITES_PER_INVITER,
        scope.userId,
        "Too many invitations sent; wait a while.",
      );
      await rateLimiter.consume(
        INVITES_PER_ADDRESS,
        email,
        "Too many invitations to this address; wait a while.",
      );
      const token = createOpaqueToken();
      const now = clock.now();
      const id = newId();
      await db.transaction().execute(async (trx) => {
        // Serialised with the project's other membership changes: two invitations of one
        // address at once replace each other instead of colliding on its unique index, and an
        // inviter demoted or removed meanwhile is refused.
        const current = await reauthorize(trx, scope, "members:manage");
        if (body.role === "owner") assertCan(current, "owners:manage", "inviting an owner");
        const repo = createInvitationsRepo(trx);
        await repo.deleteExpired(toIsoTimestamp(now));
        const replaced = await repo.deleteForEmail(project.id, email);
        await repo.insert({
          id,
          project_id: project.id,
          email,
          role: body.role,
          token_hash: token.hash,
          invited_by: scope.userId,
          created_at: toIsoTimestamp(now),
          expires_at: toIsoTimestamp(new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS)),
        });
        await audit.record(trx, {
          projectId: project.id,
          actorId: scope.userId,
          action: "member.invited",
          target: { type: "invitation", id, label: email },
          details: { role: body.role, ...(replaced === undefined ? {} : { replaced }) },
        });
      });
      const created = await invitations.findDetail(id);
      if (created === undefined) throw new Error("invitation vanished right after insert");
      const invitation = toInvitation(created);
      mail.enqueue(
        invitationMail({
          to: email,
          inviter: invitation.invited_by.name,
          projectName: project.name,
          role: body.role,
          url: `${publicUrl}/invitations/accept?token=${token.token}`,
        }),
      );
      return invitation;
    },

    async list(scope: ProjectScope): Promise<Invitations> {
      return { invitations: (await invitations.listPending(scope.project.id, nowIso())).map(toInvitation) };
    },

    async revoke(scope: ProjectScope, invitationId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const current = await reauthorize(trx, scope, "members:manage");
        const repo = createInvitationsRepo(trx);
        const row = await repo.findDetail(invitationId);
        if (row === undefined || row.project_id !== scope.project.id) {
          throw new AppError("not_found", `Invitation ${invitationId} not found.`);
        }
        if (row.role === "owner" || parseRole(row.role) === undefined) {
          assertCan(current, "owners:manage", "revoking an owner's invitation");
        }
        if (!(await repo.delete(row.id))) throw invalidInvitation();
        await audit.record(trx, {
          projectId: row.project_id,
          actorId: scope.userId,
          action: "invitation.revoked",
          target: { type: "invitation", id: row.id, label: row.email },
          details: { role: row.role },
        });
      });
    },

    /** Pending invitations addressed to the caller's e-mail address. */
    async listReceived(caller: Caller): Promise<ReceivedInvitations> {
      const rows = await invitations.listPendingForEmail(normaliseEmail(caller.email), nowIso());
      return {
        invitations: rows.map((row) => ({
          id: row.id,
          project: { id: row.project_id, name: row.project_name, slug: row.project_slug },
          role: row.role as Role,
          invited_by: inviterOf(row),
          created_at: row.created_at,
          expires_at: row.expires_at,
        })),
      };
    },

    async accept(caller: Caller, body: AnswerInvitationBody): Promise<AcceptedInvitation> {
      const row = await answerable(caller, body);
      const role = parseRole(row.role);
      if (role === undefined) throw invalidInvitation();
      await db.transaction().execute(async (trx) => {
        const members = createMembersRepo(trx);
        await members.lockProject(row.project_id);
        // Consumed first: of two requests racing with one token, exactly one gets past here.
        if (!(await createInvitationsRepo(trx).delete(row.id))) throw invalidInvitation();
        if ((await members.find(row.project_id, caller.userId)) !== undefined) {
          throw new AppError("conflict", `You are already a member of ${row.project_name}.`);
        }
        await members.insert({
          project_id: row.project_id,
          user_id: caller.userId,
          role,
          joined_at: nowIso(),
        });
        await audit.record(trx, {
          projectId: row.project_id,
          actorId: caller.userId,
          action: "member.joined",
          target: { type: "member", id: caller.userId, label: row.email },
          details: { role, invitation: row.id, invited_by: row.invited_by },
        });
      });
      return {
        message: `You joined ${row.project_name} as ${role}.`,
        project: { id: row.project_id, name: row.project_name, slug: row.project_slug },
        role,
      };
    },

    async decline(caller: Caller, body: AnswerInvitationBody): Promise<Message> {
      const row = await answerable(caller, body);
      await db.transaction().execute(async (trx) => {
        if (!(await createInvitationsRepo(trx).delete(row.id))) throw invalidInvitation();
        await audit.record(trx, {
          projectId: row.project_id,
          actorId: caller.userId,
          action: "invitation.declined",
          target: { type: "invitation", id: row.id, label: row.email },
          details: { role: row.role },
        });
      });
      return { message: `You declined the invitation to ${row.project_name}.` };
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
