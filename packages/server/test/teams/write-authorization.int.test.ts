// Authorization holds at the moment of the write: a caller demoted or removed while their
// request is past the route's check must not get a write through that their new role forbids.
// Each round races conflicting requests and asserts the outcome (answers, roles, and the audit
// log, which records every write in commit order) is one that some serial order could produce.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import type { Reply } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { createMembersRepo } from "../../src/stores/metadata/repos/members.repo.js";
import { signInTeam, type Team, teamProject } from "../support/team.js";

const ROUNDS = 20;
const P = "/api/v1/projects/team";

interface AuditEvent {
  id: string;
  action: string;
  actor_id: string | null;
  target_id: string;
  target_label: string;
}

/** A write raced against the cut (the caller's demotion or removal), as the caller saw it. */
interface RacedWrite {
  readonly what: string;
  readonly status: number;
  /** Its audit event, when it went through. */
  readonly recorded: (event: AuditEvent) => boolean;
}

describe.each(metadataBackends())(
  "writes re-check the caller's role on $name",
  (backend: MetadataBackend) => {
    let ctx: TestContext;
    let team: Team;

    beforeEach(async () => {
      ctx = await createTestContext({ metadata: backend });
      team = await signInTeam(ctx);
      await teamProject(ctx, team, "team");
    });
    afterEach(async () => {
      await ctx.close();
    });

    /** The project's audit events in the order they were written (ids are time-ordered). */
    const auditSince = async (afterId: string): Promise<AuditEvent[]> =>
      (await ctx.deps.metadata.db
        .selectFrom("audit_events")
        .select(["id", "action", "actor_id", "target_id", "target_label"])
        .where("id", ">", afterId)
        .orderBy("id")
        .execute()) as AuditEvent[];
    const lastAuditId = async (): Promise<string> => (await auditSince("")).at(-1)?.id ?? "";

    const roleOf = async (userId: string): Promise<string | undefined> =>
      (await team.owner.client.get(`${P}/members`))
        .json<{ members: Array<{ user_id: string; role: string }> }>()
        .members.find((member) => member.user_id === userId)?.role;

    const ok = async (reply: Promise<Reply>): Promise<Reply> => {
      const answer = await reply;
      expect(answer.statusCode, answer.body).toBeLessThan(300);
      return answer;
    };

    /**
     * Serial orders: each write either came before the cut (it went through, and its event
     * precedes the cut's) or after it (refused with `refused`, and nothing recorded).
     */
    function expectSerialisable(
      events: AuditEvent[],
      cutIndex: number,
      writes: RacedWrite[],
      refused: number,
    ) {
      expect(cutIndex, JSON.stringify(events)).toBeGreaterThanOrEqual(0);
      for (const write of writes) {
        const at = events.findIndex(write.recorded);
        if (write.status < 300) {
          expect(at, `${write.what} went through: its event must precede the cut`).toBeGreaterThanOrEqual(0);
          expect(at, `${write.what} went through after the cut`).toBeLessThan(cutIndex);
        } else {
          expect(write.status, `${write.what} answered`).toBe(refused);
          expect(at, `${write.what} was refused yet recorded`).toBe(-1);
        }
      }
    }

    it("an owner demoted while transferring ownership never ends as admin", async () => {
      const owner = team.owner.client;
      const actor = team.admin;
      const heir = team.member;
      for (let round = 0; round < ROUNDS; round += 1) {
        await ok(owner.patch(`${P}/members/${heir.userId}`, { role: "member" }));
        await ok(owner.patch(`${P}/members/${actor.userId}`, { role: "owner" }));
        const since = await lastAuditId();
        const [transfer, demote] = await Promise.all([
          actor.client.post(`${P}/transfer-ownership`, { user_id: heir.userId }),
          owner.patch(`${P}/members/${actor.userId}`, { role: "viewer" }),
        ]);
        // Demoting A is allowed in either order (A is an owner or an admin; another owner stays).
        expect(demote.statusCode, demote.body).toBe(200);
        expect(await roleOf(actor.userId), `round ${round}`).toBe("viewer");
        expect(await roleOf(heir.userId), `round ${round}`).toBe(
          transfer.statusCode === 200 ? "owner" : "member",
        );
        const events = await auditSince(since);
        const cut = events.findIndex(
          (event) => event.action === "member.role_changed" && event.target_id === actor.userId,
        );
        expectSerialisable(
          events,
          cut,
          [
            {
              what: "transfer",
              status: transfer.statusCode,
              recorded: (event) => event.action === "project.ownership_transferred",
            },
          ],
          403,
        );
      }
    });

    it("an admin demoted to viewer mid-request gets no key, invitation, alert or settings write through", async () => {
      const owner = team.owner.client;
      const actor = team.admin;
      for (let round = 0; round < ROUNDS; round += 1) {
        await ok(owner.patch(`${P}/members/${actor.userId}`, { role: "admin" }));
        const doomed = (await ok(owner.post(`${P}/api-keys`, { name: `doomed ${round}` }))).json<{
          id: string;
        }>();
        const since = await lastAuditId();
        const [createKey, revokeKey, invite, channel, rule, settings, demote] = await Promise.all([
          actor.client.post(`${P}/api-keys`, { name: `key ${round}` }),
          actor.client.delete(`${P}/api-keys/${doomed.id}`),
          actor.client.post(`${P}/invitations`, { email: `guest${round}@guests.test`, role: "viewer" }),
          actor.client.post(`${P}/notification-channels`, {
            name: `Ops ${round}`,
            type: "email",
            addresses: ["ops@team.test"],
          }),
          actor.client.post(`${P}/alerts`, {
            name: `Errors ${round}`,
            metric: "error_rate",
            comparator: "gt",
            threshold: 5,
            window_seconds: 300,
          }),
          actor.client.patch(P, { description: `round ${round}` }),
          owner.patch(`${P}/members/${actor.userId}`, { role: "viewer" }),
        ]);
        expect(demote.statusCode, demote.body).toBe(200);
        const events = await auditSince(since);
        const cut = events.findIndex(
          (event) => event.action === "member.role_changed" && event.target_id === actor.userId,
        );
        expectSerialisable(
          events,
          cut,
          [
            {
              what: "key creation",
              status: createKey.statusCode,
              recorded: (event) =>
                event.action === "api_key.created" && event.target_label === `key ${round}`,
            },
            {
              what: "key revocation",
              status: revokeKey.statusCode,
              recorded: (event) => event.action === "api_key.revoked" && event.target_id === doomed.id,
            },
            {
              what: "invitation",
              status: invite.statusCode,
              recorded: (event) => event.action === "member.invited",
            },
            {
              what: "channel creation",
              status: channel.statusCode,
              recorded: (event) => event.action === "notification_channel.created",
            },
            {
              what: "alert rule creation",
              status: rule.statusCode,
              recorded: (event) => event.action === "alert_rule.created",
            },
            {
              what: "project settings",
              status: settings.statusCode,
              recorded: (event) => event.action === "project.updated",
            },
          ],
          403,
        );
        // Keep under the live-key limit across rounds.
        const live = (await owner.get(`${P}/api-keys`)).json<Array<{ id: string; is_revoked: boolean }>>();
        for (const key of live.filter((item) => !item.is_revoked))
          await ok(owner.delete(`${P}/api-keys/${key.id}`));
      }
    });

    it("an admin removed mid-request gets no key, invitation or invitation revocation through", async () => {
      const owner = team.owner.client;
      const actor = team.admin;
      const projectId = (await owner.get(P)).json<{ id: string }>().id;
      for (let round = 0; round < ROUNDS; round += 1) {
        // Rejoined directly: re-inviting every round would run into the inviter's hourly limit.
        if ((await roleOf(actor.userId)) === undefined) {
          await createMembersRepo(ctx.deps.metadata.db).insert({
            project_id: projectId,
            user_id: actor.userId,
            role: "admin",
            joined_at: new Date().toISOString(),
          });
        }
        const pending = (
          await ok(owner.post(`${P}/invitations`, { email: `pending${round}@guests.test`, role: "member" }))
        ).json<{ id: string }>();
        const since = await lastAuditId();
        const [createKey, invite, revoke, remove] = await Promise.all([
          actor.client.post(`${P}/api-keys`, { name: `key ${round}` }),
          actor.client.post(`${P}/invitations`, { email: `guest${round}@guests.test`, role: "viewer" }),
          actor.client.delete(`${P}/invitations/${pending.id}`),
          owner.delete(`${P}/members/${actor.userId}`),
        ]);
        expect(remove.statusCode, remove.body).toBe(200);
        const events = await auditSince(since);
        const cut = events.findIndex((event) => event.action === "member.removed");
        expectSerialisable(
          events,
          cut,
          [
            {
              what: "key creation",
              status: createKey.statusCode,
              recorded: (event) => event.action === "api_key.created",
            },
            {
              what: "invitation",
              status: invite.statusCode,
              recorded: (event) =>
                event.action === "member.invited" && event.target_label.startsWith("guest"),
            },
            {
              what: "invitation revocation",
              status: revoke.statusCode,
              recorded: (event) => event.action === "invitation.revoked" && event.target_id === pending.id,
            },
          ],
          404,
        );
        const live = (await owner.get(`${P}/api-keys`)).json<Array<{ id: string; is_revoked: boolean }>>();
        for (const key of live.filter((item) => !item.is_revoked))
          await ok(owner.delete(`${P}/api-keys/${key.id}`));
      }
    });
  },
);
