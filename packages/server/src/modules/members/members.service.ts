// A project's members: listing, role changes, removal and leaving, ownership transfer, and what
// account deletion does to memberships. Rules beyond the route's permission (touching owners,
// removing someone else) are checked here with the same matrix; a project never loses its last
// owner, and changes to one project's memberships are serialised so two cannot race past that.
import {
  type Member,
  type Members,
  parseRole,
  type Role,
  ROLES,
  type TransferOwnershipBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { AppError } from "../../errors.js";
import { displayName, pictureUrlOf } from "../../lib/user-ref.js";
import { createMembersRepo, type MemberWithUserRow } from "../../stores/metadata/repos/members.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { assertCan, type ProjectScope, reauthorize } from "../access/index.js";
import type { AuditTrail } from "../audit/index.js";

export interface MembersServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly audit: AuditTrail;
  /** Absolute base of API URLs: picture URLs are built on it. */
  readonly apiBaseUrl: string;
  /** Soft-deletes a project inside a transaction (account deletion of its last member). */
  readonly deleteProjectWithin: (trx: Kysely<MetadataTables>, projectId: string) => Promise<() => void>;
}

const rank = (role: string): number => {
  const index = (ROLES as readonly string[]).indexOf(role);
  return index === -1 ? ROLES.length : index;
};

const notAMember = (userId: string) =>
  new AppError("not_found", `User ${userId} is not a member of this project.`);
const lastOwner = () =>
  new AppError(
    "conflict",
    "A project needs at least one owner: make someone else an owner (or transfer ownership) first.",
  );

export function createMembersService({ db, audit, apiBaseUrl, deleteProjectWithin }: MembersServiceDeps) {
  function toMember(row: MemberWithUserRow): Member {
    return {
      user_id: row.user_id,
      email: row.email,
      name: displayName(row),
      picture_url: pictureUrlOf(apiBaseUrl, { id: row.user_id, picture_updated_at: row.picture_updated_at }),
      role: parseRole(row.role) as Role,
      joined_at: row.joined_at,
    };
  }

  /** Members with known roles, owners first, then by joining time (the repo's order). */
  async function listOf(trxOrDb: Kysely<MetadataTables>, projectId: string): Promise<Member[]> {
    const rows = (await createMembersRepo(trxOrDb).list(projectId)).filter(
      (row) => parseRole(row.role) !== undefined,
    );
    return rows.sort((a, b) => rank(a.role) - rank(b.role)).map(toMember);
  }

  /** The target's membership row (with account), inside the locked transaction. */
  async function targetIn(trx: Kysely<MetadataTables>, projectId: string, userId: string) {
    const row = (await createMembersRepo(trx).list(projectId)).find((member) => member.user_id === userId);
    if (row === undefined) throw notAMember(userId);
    return row;
  }

  /** Owners, and roles we do not know (fail closed), may only be touched by owners. */
  const isProtected = (role: string) => role === "owner" || parseRole(role) === undefined;

  return {
    async list(scope: ProjectScope): Promise<Members> {
      return { members: await listOf(db, scope.project.id) };
    },

    async changeRole(scope: ProjectScope, userId: string, role: Role): Promise<Member> {
      const projectId = scope.project.id;
      return db.transaction().execute(async (trx) => {
        const members = createMembersRepo(trx);
        const current = await reauthorize(trx, scope, "members:manage");
        const target = await targetIn(trx, projectId, userId);
        if (isProtected(target.role) || role === "owner")
          assertCan(current, "owners:manage", "changing an owner's role or making an owner");
        if (target.role === role) return toMember(target);
        if (target.role === "owner" && (await members.countWithRole(projectId, "owner")) <= 1)
          throw lastOwner();
        await members.updateRole(projectId, userId, role);
        await audit.record(trx, {
          projectId,
          actorId: scope.userId,
          action: "member.role_changed",
          target: { type: "member", id: userId, label: target.email },
          details: { from: target.role, to: role },
        });
        return toMember({ ...target, role });
      });
    },

    /** Removes a member; a member removing themselves is leaving (any role may). */
    async remove(scope: ProjectScope, userId: string): Promise<void> {
      const projectId = scope.project.id;
      const leaving = userId === scope.userId;
      await db.transaction().execute(async (trx) => {
        const members = createMembersRepo(trx);
        const current = await reauthorize(trx, scope, "project:leave");
        const target = await targetIn(trx, projectId, userId);
        if (!leaving) {
          assertCan(current, "members:manage", "removing other members");
          if (isProtected(target.role)) assertCan(current, "owners:manage", "removing an owner");
        }
        if (target.role === "owner" && (await members.countWithRole(projectId, "owner")) <= 1)
          throw lastOwner();
        await members.delete(projectId, userId);
        await audit.record(trx, {
          projectId,
          actorId: scope.userId,
          action: leaving ? "member.left" : "member.removed",
          target: { type: "member", id: userId, label: target.email },
          details: { role: target.role },
        });
      });
    },

    /** Makes a member an owner and the caller an admin, in one step. */
    async transferOwnership(scope: ProjectScope, body: TransferOwnershipBody): Promise<Members> {
      const projectId = scope.project.id;
      if (body.user_id === scope.userId) {
        throw new AppError("validation_error", "You cannot transfer ownership to yourself.", {
          errors: [{ pointer: "/user_id", message: "must be another member" }],
        });
      }
      return db.transaction().execute(async (trx) => {
        const members = createMembersRepo(trx);
        // Only an owner may transfer (project:transfer): a caller demoted or removed since the
        // route's check is refused here, so the caller demoted below is still an owner.
        await reauthorize(trx, scope, "project:transfer");
        const all = await members.list(projectId);
        const target = all.find((member) => member.user_id === body.user_id);
        if (target === undefined || parseRole(target.role) === undefined) {
          throw new AppError("validation_error", `User ${body.user_id} is not a member of this project.`, {
            errors: [{ pointer: "/user_id", message: "must be a member of the project" }],
          });
        }
        await members.updateRole(projectId, target.user_id, "owner");
        await members.updateRole(projectId, scope.userId, "admin");
        await audit.record(trx, {
          projectId,
          actorId: scope.userId,
          action: "project.ownership_transferred",
          target: { type: "member", id: target.user_id, label: target.email },
          details: { from_role: target.role, previous_owner_role: "admin" },
        });
        return { members: await listOf(trx, projectId) };
      });
    },

    /**
     * Account deletion (runs in its transaction): every membership of the user ends. A project
     * the user is the last owner of passes to the longest-standing member of the highest role
     * below (admin, else member, else viewer); one with no other member is soft-deleted.
     */
    async endMembershipsOf(trx: Kysely<MetadataTables>, userId: string): Promise<() => void> {
      const members = createMembersRepo(trx);
      const afterCommit: Array<() => void> = [];
      for (const { project, role } of await members.listForUser(userId)) {
        await members.lockProject(project.id);
        const others = (await members.list(project.id)).filter(
          (member) => member.user_id !== userId && parseRole(member.role) !== undefined,
        );
        const reason = { reason: "account_deleted" };
        if (role === "owner" && !others.some((member) => member.role === "owner")) {
          // Stable sort: within a role, the list is already in joining order.
          const successor = [...others].sort((a, b) => rank(a.role) - rank(b.role))[0];
          if (successor === undefined) {
            afterCommit.push(await deleteProjectWithin(trx, project.id));
            continue;
          }
          await members.updateRole(project.id, successor.user_id, "owner");
          await audit.record(trx, {
            projectId: project.id,
            actorId: null,
            action: "project.ownership_transferred",
            target: { type: "member", id: successor.user_id, label: successor.email },
            details: { ...reason, from_role: successor.role },
          });
        }
        await audit.record(trx, {
          projectId: project.id,
          actorId: userId,
          action: "member.left",
          target: { type: "member", id: userId, label: "Deleted user" },
          details: { ...reason, role },
        });
      }
      // Memberships of projects deleted earlier go too: nothing of the user stays a member.
      await members.deleteAllOf(userId);
      return () => {
        for (const then of afterCommit) then();
      };
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
