// The audit log records every event class of a project — who did what and when — in the
// transaction of the change, and pages through it newest first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { newestInvitationToken, person, signInTeam, type Team, teamProject } from "../support/team.js";

interface AuditEvent {
  id: string;
  action: string;
  actor: { user_id: string; email: string; name: string } | null;
  target: { type: string; id: string; label: string };
  details: Record<string, unknown>;
  created_at: string;
}
interface AuditPage {
  items: AuditEvent[];
  total_count: number;
  page: number;
  page_size: number;
}

describe.each(metadataBackends())("audit log on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let team: Team;
  let keyId: string;

  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend });
    team = await signInTeam(ctx);
    await teamProject(ctx, team, "team");
    const owner = team.owner.client;
    const admin = team.admin.client;
    const ok = async (promise: Promise<{ statusCode: number; body: string }>) => {
      const response = await promise;
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response;
    };
    await ok(owner.patch("/api/v1/projects/team", { name: "The Team", description: "Ours" }));
    await ok(team.member.client.post("/api/v1/projects/team/apps", { name: "Web", slug: "web" }));
    await ok(team.member.client.post("/api/v1/apps/web/environments", { name: "Staging" }));
    await ok(team.member.client.delete("/api/v1/apps/web/environments/staging"));
    await ok(team.member.client.delete("/api/v1/apps/web"));
    keyId = (await ok(admin.post("/api/v1/projects/team/api-keys", { name: "ci" }))).body;
    keyId = (JSON.parse(keyId) as { id: string }).id;
    await ok(admin.delete(`/api/v1/projects/team/api-keys/${keyId}`));
    await ok(admin.patch(`/api/v1/projects/team/members/${team.viewer.userId}`, { role: "member" }));
    await ok(admin.delete(`/api/v1/projects/team/members/${team.member.userId}`));
    await ok(team.viewer.client.delete(`/api/v1/projects/team/members/${team.viewer.userId}`));
    const revoked = await ok(
      admin.post("/api/v1/projects/team/invitations", { email: "x@guests.test", role: "viewer" }),
    );
    await ok(
      admin.delete(`/api/v1/projects/team/invitations/${(JSON.parse(revoked.body) as { id: string }).id}`),
    );
    await ok(admin.post("/api/v1/projects/team/invitations", { email: "y@guests.test", role: "viewer" }));
    const guest = await person(ctx, "y@guests.test");
    await ok(
      guest.client.post("/api/v1/invitations/decline", {
        token: await newestInvitationToken(ctx, "y@guests.test"),
      }),
    );
    await ok(owner.post("/api/v1/projects/team/transfer-ownership", { user_id: team.admin.userId }));
  });
  afterAll(async () => {
    await ctx.close();
  });

  const page = async (query = "") => {
    const response = await team.admin.client.get(`/api/v1/projects/team/audit-log${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AuditPage>();
  };

  it("records every event class, newest first", async () => {
    const log = await page("?page_size=200");
    expect(log.items.map((event) => event.action).reverse()).toEqual([
      "project.created",
      "member.invited",
      "member.joined",
      "member.invited",
      "member.joined",
      "member.invited",
      "member.joined",
      "project.updated",
      "app.created",
      "environment.created",
      "environment.deleted",
      "app.deleted",
      "api_key.created",
      "api_key.revoked",
      "member.role_changed",
      "member.removed",
      "member.left",
      "member.invited",
      "invitation.revoked",
      "member.invited",
      "invitation.declined",
      "project.ownership_transferred",
    ]);
    expect(log.total_count).toBe(22);
    const find = (action: string) => log.items.find((event) => event.action === action) as AuditEvent;
    expect(find("project.updated")).toMatchObject({
      actor: { user_id: team.owner.userId, email: "owner@team.test", name: "owner" },
      target: { type: "project", label: "The Team" },
      details: { name: { from: "Project team", to: "The Team" }, description: { from: "", to: "Ours" } },
    });
    expect(find("member.role_changed")).toMatchObject({
      actor: { user_id: team.admin.userId },
      target: { type: "member", id: team.viewer.userId, label: "viewer@team.test" },
      details: { from: "viewer", to: "member" },
    });
    expect(find("api_key.revoked")).toMatchObject({
      target: { type: "api_key", id: keyId, label: "ci" },
      details: { prefix: expect.stringMatching(/^sl_/) },
    });
    expect(find("member.removed")).toMatchObject({
      target: { id: team.member.userId },
      details: { role: "member" },
    });
    expect(find("member.left")).toMatchObject({ actor: { user_id: team.viewer.userId } });
    expect(find("invitation.declined")).toMatchObject({ target: { label: "y@guests.test" } });
    expect(find("project.ownership_transferred")).toMatchObject({
      actor: { user_id: team.owner.userId },
      target: { id: team.admin.userId },
    });
    expect(find("environment.created")).toMatchObject({ details: { app: "web", slug: "staging" } });
    for (const event of log.items) expect(event.created_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it("pages through the log with its total", async () => {
    const all = (await page("?page_size=200")).items.map((event) => event.id);
    const second = await page("?page=2&page_size=5");
    expect(second).toMatchObject({ total_count: 22, page: 2, page_size: 5 });
    expect(second.items.map((event) => event.id)).toEqual(all.slice(5, 10));
    expect((await page("?page=5&page_size=5")).items).toHaveLength(2);
    expect((await page("?page_size=1000")).page_size).toBe(200);
    expectProblem(await team.admin.client.get("/api/v1/projects/team/audit-log?page=0"), "validation_error");
  });

  it("is for admins and owners only", async () => {
    // The former owner is an admin now; a former member is no longer in the project.
    expect((await team.owner.client.get("/api/v1/projects/team/audit-log")).statusCode).toBe(200);
    expectProblem(await team.member.client.get("/api/v1/projects/team/audit-log"), "not_found");
  });
});
