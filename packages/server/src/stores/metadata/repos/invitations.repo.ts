// Pending invitations to projects. A row exists only while an invitation is pending (or has
// expired unanswered): accepting, declining, revoking or re-inviting deletes it, so a token
// works once. Deletion is conditional, so of two requests racing with one token one wins.
import type { Kysely, Selectable } from "kysely";
import type { MetadataTables, ProjectInvitationsTable } from "../schema.js";

export type InvitationRow = Selectable<ProjectInvitationsTable>;

/** An invitation with its inviter's account and its project. */
export interface InvitationDetailRow extends InvitationRow {
  inviter_email: string;
  inviter_first_name: string;
  inviter_last_name: string;
  project_name: string;
  project_slug: string;
}

export function createInvitationsRepo(db: Kysely<MetadataTables>) {
  const detailed = () =>
    db
      .selectFrom("project_invitations as i")
      .innerJoin("users as u", "u.id", "i.invited_by")
      .innerJoin("projects as p", "p.id", "i.project_id")
      .selectAll("i")
      .select([
        "u.email as inviter_email",
        "u.first_name as inviter_first_name",
        "u.last_name as inviter_last_name",
        "p.name as project_name",
        "p.slug as project_slug",
      ])
      .where("p.deleted_at", "is", null);

  return {
    async insert(row: InvitationRow): Promise<void> {
      await db.insertInto("project_invitations").values(row).execute();
    },

    /** Drops the invitation of `email` to the project, pending or expired (re-inviting). */
    async deleteForEmail(projectId: string, email: string): Promise<string | undefined> {
      const row = await db
        .deleteFrom("project_invitations")
        .where("project_id", "=", projectId)
        .where("email", "=", email)
        .returning("id")
        .executeTakeFirst();
      return row?.id;
    },

    /** Deletes the invitation (consuming it); false when another request got there first. */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom("project_invitations").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async findDetail(id: string): Promise<InvitationDetailRow | undefined> {
      return detailed().where("i.id", "=", id).executeTakeFirst();
    },

    async findDetailByHash(tokenHash: string): Promise<InvitationDetailRow | undefined> {
      return detailed().where("i.token_hash", "=", tokenHash).executeTakeFirst();
    },

    /** A project's invitations not expired at `now`, newest first. */
    async listPending(projectId: string, now: string): Promise<InvitationDetailRow[]> {
      return detailed()
        .where("i.project_id", "=", projectId)
        .where("i.expires_at", ">", now)
        .orderBy("i.created_at", "desc")
        .orderBy("i.id", "desc")
        .execute();
    },

    /** Invitations to `email` in live projects not expired at `now`, newest first. */
    async listPendingForEmail(email: string, now: string): Promise<InvitationDetailRow[]> {
      return detailed()
        .where("i.email", "=", email)
        .where("i.expires_at", ">", now)
        .orderBy("i.created_at", "desc")
        .orderBy("i.id", "desc")
        .execute();
    },

    async deleteExpired(before: string): Promise<void> {
      await db.deleteFrom("project_invitations").where("expires_at", "<=", before).execute();
    },
  };
}

export type InvitationsRepo = ReturnType<typeof createInvitationsRepo>;
