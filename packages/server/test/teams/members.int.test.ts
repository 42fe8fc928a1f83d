// Sharing a project: members and their roles, the rules that depend on who is touched (owners,
// the last owner, someone else), ownership transfer, roles in listings and the user context,
// unknown roles failing closed, and what deleting an account does to the projects it was in.
import { permissionsOf } from "@sightline/contracts";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMembersRepo } from "../../src/stores/metadata/repos/members.repo.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { join, person, signInTeam, type Team, teamProject } from "../support/team.js";

describe.each(metadataBackends())("project members on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let team: Team;
  const members = (slug = "team") => `/api/v1/projects/${slug}/members`;

  beforeEach(async () => {
    ctx = await createTestContext({ metadata: backend });
    team = await signInTeam(ctx);
    await teamProject(ctx, team, "team");
  });
  afterEach(async () => {
    await ctx.close();
  });

  const roleOf = async (userId: string) =>
    (await team.owner.client.get(members()))
      .json<{ members: Array<{ user_id: string; role: string }> }>()
      .members.find((member) => member.user_id === userId)?.role;

  it("lets two people share a project with different roles", async () => {
    await team.owner.client.post("/api/v1/projects/team/apps", { name: "Web", slug: "web" });
    const viewer = team.viewer.client;
    expect((await viewer.get("/api/v1/projects/team/apps")).json()).toMatchObject([{ slug: "web" }]);
    expect((await viewer.get("/api/v1/apps/web/analytics/summary")).statusCode).toBe(200);
    expectProblem(await viewer.post("/api/v1/projects/team/api-keys", { name: "mine" }), "forbidden");
    expectProblem(await viewer.post("/api/v1/projects/team/apps", { name: "Mine" }), "forbidden");
    const member = team.member.client;
    expect((await member.post("/api/v1/projects/team/apps", { name: "Mine" })).statusCode).toBe(201);
    const denied = expectProblem(await member.get("/api/v1/projects/team/api-keys"), "forbidden");
    expect(denied).toMatchObject({ permission: "keys:manage" });
    expect(denied.detail).toContain("(member)");
  });

  it("lists members with their accounts, owners first, then by joining time", async () => {
    await team.admin.client.patch("/api/v1/users/me", { first_name: "Ada", last_name: "Admin" });
    const response = await team.viewer.client.get(members());
    expect(response.statusCode).toBe(200);
    const list = response.json<{ members: Array<Record<string, unknown>> }>().members;
    expect(list.map((member) => member.role)).toEqual(["owner", "admin", "member", "viewer"]);
    expect(list[1]).toEqual({
      user_id: team.admin.userId,
      email: "admin@team.test",
      name: "Ada Admin",
      picture_url: "",
      role: "admin",
      joined_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(list[0]).toMatchObject({ email: "owner@team.test", name: "owner" });
  });

  it("lets admins change roles below owner, and only owners touch owners", async () => {
    const promoted = await team.admin.client.patch(`${members()}/${team.viewer.userId}`, { role: "member" });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ user_id: team.viewer.userId, role: "member" });
    expectProblem(
      await team.admin.client.patch(`${members()}/${team.member.userId}`, { role: "owner" }),
      "forbidden",
    );
    const demoteOwner = expectProblem(
      await team.admin.client.patch(`${members()}/${team.owner.userId}`, { role: "viewer" }),
      "forbidden",
    );
    expect(demoteOwner.permission).toBe("owners:manage");
    expectProblem(
      await team.admin.client.patch(`${members()}/${team.outsider.userId}`, { role: "viewer" }),
      "not_found",
    );
    expectProblem(
      await team.admin.client.patch(`${members()}/${team.viewer.userId}`, { role: "superuser" }),
      "validation_error",
    );
    // The new role applies to the very next request.
    expect(
      (await team.viewer.client.post("/api/v1/projects/team/apps", { name: "Now allowed" })).statusCode,
    ).toBe(201);
  });

  it("never lets the last owner go, and lets one of two owners step down", async () => {
    const self = `${members()}/${team.owner.userId}`;
    expect(
      expectProblem(await team.owner.client.patch(self, { role: "admin" }), "conflict").detail,
    ).toContain("at least one owner");
    expectProblem(await team.owner.client.delete(self), "conflict");
    expect(
      (await team.owner.client.patch(`${members()}/${team.admin.userId}`, { role: "owner" })).statusCode,
    ).toBe(200);
    expect((await team.owner.client.patch(self, { role: "viewer" })).statusCode).toBe(200);
    expect(await roleOf(team.owner.userId)).toBe("viewer");
    expectProblem(
      await team.admin.client.patch(`${members()}/${team.admin.userId}`, { role: "admin" }),
      "conflict",
    );
  });

  it("keeps an owner when two owners demote each other at the same time", async () => {
    await team.owner.client.patch(`${members()}/${team.admin.userId}`, { role: "owner" });
    const answers = await Promise.all([
      team.owner.client.patch(`${members()}/${team.admin.userId}`, { role: "admin" }),
      team.admin.client.patch(`${members()}/${team.owner.userId}`, { role: "admin" }),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    // Either one demotion wins and the other finds itself no longer an owner (403) or the last
    // owner (409); never both through.
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const roles = [await roleOf(team.owner.userId), await roleOf(team.admin.userId)];
    expect(roles.filter((role) => role === "owner")).toHaveLength(1);
  });

  it("removes members, ends their access at once, and lets anyone leave", async () => {
    expectProblem(await team.member.client.delete(`${members()}/${team.viewer.userId}`), "forbidden");
    expectProblem(await team.admin.client.delete(`${members()}/${team.owner.userId}`), "forbidden");
    const removed = await team.admin.client.delete(`${members()}/${team.member.userId}`);
    expect(removed.json()).toEqual({ message: "Member removed" });
    expectProblem(await team.member.client.get("/api/v1/projects/team"), "not_found");
    expectProblem(await team.member.client.delete(`${members()}/${team.member.userId}`), "not_found");
    const left = await team.viewer.client.delete(`${members()}/${team.viewer.userId}`);
    expect(left.json()).toEqual({ message: "You left the project" });
    expectProblem(await team.viewer.client.get("/api/v1/projects/team/apps"), "not_found");
    expect((await team.viewer.client.get("/api/v1/projects")).json()).toEqual([]);
    expectProblem(await team.owner.client.delete(`${members()}/${team.outsider.userId}`), "not_found");
  });

  it("transfers ownership to a member in one step", async () => {
    const transfer = (body: unknown) =>
      team.owner.client.post("/api/v1/projects/team/transfer-ownership", body);
    expect(
      expectProblem(await transfer({ user_id: team.outsider.userId }), "validation_error").errors,
    ).toEqual([{ pointer: "/user_id", message: "must be a member of the project" }]);
    expectProblem(await transfer({ user_id: team.owner.userId }), "validation_error");
    expectProblem(
      await team.admin.client.post("/api/v1/projects/team/transfer-ownership", {
        user_id: team.admin.userId,
      }),
      "forbidden",
    );
    const done = await transfer({ user_id: team.viewer.userId });
    expect(done.statusCode).toBe(200);
    expect(
      done.json<{ members: Array<{ email: string; role: string }> }>().members.map((m) => [m.email, m.role]),
    ).toEqual([
      ["viewer@team.test", "owner"],
      ["owner@team.test", "admin"],
      ["admin@team.test", "admin"],
      ["member@team.test", "member"],
    ]);
    expectProblem(await team.owner.client.delete("/api/v1/projects/team"), "forbidden");
    expect((await team.viewer.client.delete("/api/v1/projects/team")).statusCode).toBe(200);
  });

  it("shows each person their role in listings and in the user context", async () => {
    await team.owner.client.post("/api/v1/projects/team/apps", { name: "Web", slug: "web" });
    await team.member.client.post("/api/v1/projects", { name: "Own", slug: "own" });
    const projects = (await team.member.client.get("/api/v1/projects")).json<
      Array<{ slug: string; role: string }>
    >();
    expect(projects.map((p) => [p.slug, p.role])).toEqual([
      ["own", "owner"],
      ["team", "member"],
    ]);
    expect((await team.viewer.client.get("/api/v1/apps")).json()).toMatchObject([
      { slug: "web", project_slug: "team" },
    ]);
    const context = (await team.viewer.client.get("/api/v1/users/context")).json<{ projects: unknown[] }>();
    expect(context.projects).toEqual([
      {
        id: expect.any(String),
        slug: "team",
        name: "Project team",
        role: "viewer",
        permissions: permissionsOf("viewer"),
      },
    ]);
    expect(permissionsOf("viewer")).toEqual([
      "project:read",
      "data:read",
      "views:write",
      "project:leave",
      "alerts:read",
      "contract:read",
    ]);
  });

  it("resolves /apps/{app_slug} among the caller's projects, naming them when ambiguous", async () => {
    await team.owner.client.post("/api/v1/projects/team/apps", { name: "Web", slug: "web" });
    await team.viewer.client.post("/api/v1/projects", { name: "Mine", slug: "mine" });
    await team.viewer.client.post("/api/v1/projects/mine/apps", { name: "Web", slug: "web" });
    const ambiguous = expectProblem(await team.viewer.client.get("/api/v1/apps/web"), "conflict");
    expect(ambiguous.projects).toEqual(["mine", "team"]);
    expect((await team.member.client.get("/api/v1/apps/web")).statusCode).toBe(200);
    // Chosen with ?project=, the viewer's role there decides.
    expectProblem(
      await team.viewer.client.patch("/api/v1/apps/web?project=team", { name: "x" }),
      "forbidden",
    );
    expect((await team.viewer.client.patch("/api/v1/apps/web?project=mine", { name: "x" })).statusCode).toBe(
      200,
    );
  });

  it("treats a role it does not know as no membership at all", async () => {
    await team.owner.client.post("/api/v1/projects/team/apps", { name: "Web", slug: "web" });
    await ctx.deps.metadata.db
      .updateTable("project_members")
      .set({ role: "superuser" })
      .where("user_id", "=", team.admin.userId)
      .execute();
    const admin = team.admin.client;
    expectProblem(await admin.get("/api/v1/projects/team"), "not_found");
    expectProblem(await admin.get("/api/v1/apps/web"), "not_found");
    expectProblem(await admin.get("/api/v1/apps/web?project=team"), "not_found");
    expectProblem(await admin.post("/api/v1/projects/team/api-keys", { name: "k" }), "not_found");
    expect((await admin.get("/api/v1/projects")).json()).toEqual([]);
    expect((await admin.get("/api/v1/apps")).json()).toEqual([]);
    expect((await admin.get("/api/v1/users/context")).json()).toMatchObject({ projects: [] });
    expect(
      (await team.owner.client.get(members()))
        .json<{ members: Array<{ user_id: string }> }>()
        .members.map((m) => m.user_id),
    ).not.toContain(team.admin.userId);
    // An unknown role is treated like an owner's when someone touches it: only owners may.
    expectProblem(
      await team.member.client.patch(`${members()}/${team.admin.userId}`, { role: "admin" }),
      "forbidden",
    );
    expect(
      (await team.owner.client.patch(`${members()}/${team.admin.userId}`, { role: "admin" })).statusCode,
    ).toBe(200);
    expect((await admin.get("/api/v1/projects/team")).statusCode).toBe(200);
  });
});

describe.each(metadataBackends())("account deletion and memberships on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ metadata: backend });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const rolesIn = async (client: Team["owner"]["client"], slug: string) =>
    (await client.get(`/api/v1/projects/${slug}/members`))
      .json<{ members: Array<{ email: string; role: string }> }>()
      .members.map((member) => [member.email, member.role]);

  it("ends memberships, hands shared projects on, and deletes projects nobody else is in", async () => {
    const leaving = await person(ctx, "leaving@team.test");
    const early = await person(ctx, "early-admin@team.test");
    const late = await person(ctx, "late-admin@team.test");
    const member = await person(ctx, "member@team.test");
    const viewer = await person(ctx, "viewer@team.test");
    const other = await person(ctx, "other-owner@team.test");
    const create = async (slug: string) =>
      expect((await leaving.client.post("/api/v1/projects", { name: slug, slug })).statusCode).toBe(201);
    // Shared with two admins: the one who joined first takes over.
    await create("with-admins");
    await join(ctx, leaving.client, "with-admins", member, "member");
    await join(ctx, leaving.client, "with-admins", early, "admin");
    await join(ctx, leaving.client, "with-admins", late, "admin");
    // No admin: the longest-standing member, even though a viewer joined earlier.
    await create("no-admin");
    await join(ctx, leaving.client, "no-admin", viewer, "viewer");
    await join(ctx, leaving.client, "no-admin", member, "member");
    // Only viewers: the viewer.
    await create("only-viewers");
    await join(ctx, leaving.client, "only-viewers", viewer, "viewer");
    // Another owner: nothing but the membership changes.
    await create("two-owners");
    await join(ctx, leaving.client, "two-owners", other, "owner");
    // Nobody else: deleted like DELETE /projects/{slug}; its key stops working.
    await create("alone");
    const key = (await leaving.client.post("/api/v1/projects/alone/api-keys", { name: "k" })).json<{
      key: string;
    }>().key;
    // A plain membership elsewhere.
    await other.client.post("/api/v1/projects", { name: "Theirs", slug: "theirs" });
    await join(ctx, other.client, "theirs", leaving, "admin");

    expect((await leaving.client.delete("/api/v1/users/me")).statusCode).toBe(200);

    expect(await rolesIn(early.client, "with-admins")).toEqual([
      ["early-admin@team.test", "owner"],
      ["late-admin@team.test", "admin"],
      ["member@team.test", "member"],
    ]);
    expect(await rolesIn(member.client, "no-admin")).toEqual([
      ["member@team.test", "owner"],
      ["viewer@team.test", "viewer"],
    ]);
    expect(await rolesIn(viewer.client, "only-viewers")).toEqual([["viewer@team.test", "owner"]]);
    expect(await rolesIn(other.client, "two-owners")).toEqual([["other-owner@team.test", "owner"]]);
    expect(await rolesIn(other.client, "theirs")).toEqual([["other-owner@team.test", "owner"]]);
    expect(
      (
        await ctx.deps.metadata.db
          .selectFrom("projects")
          .select("deleted_at")
          .where("slug", "=", "alone")
          .executeTakeFirst()
      )?.deleted_at,
    ).toEqual(expect.any(String));
    const ingest = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/ingest/requests",
      headers: { "x-api-key": key },
      payload: { requests: [] },
    });
    expect(ingest.statusCode).toBe(401);
    const memberships = await ctx.deps.metadata.db
      .selectFrom("project_members")
      .select("project_id")
      .where("user_id", "=", leaving.userId)
      .execute();
    expect(memberships).toEqual([]);
    // The hand-over is on the record.
    const log = (await early.client.get("/api/v1/projects/with-admins/audit-log")).json<{
      items: Array<{
        action: string;
        actor: unknown;
        target: { label: string };
        details: Record<string, unknown>;
      }>;
    }>();
    expect(log.items.slice(0, 2)).toEqual([
      expect.objectContaining({
        action: "member.left",
        actor: { user_id: leaving.userId, email: "", name: "Deleted user" },
        details: { reason: "account_deleted", role: "owner" },
      }),
      expect.objectContaining({
        action: "project.ownership_transferred",
        actor: null,
        target: expect.objectContaining({ label: "early-admin@team.test" }),
        details: { reason: "account_deleted", from_role: "admin" },
      }),
    ]);
  });
});

describe.each(metadataBackends().filter((backend) => backend.name === "postgres"))(
  "membership changes of one project are serialised on $name",
  (backend: MetadataBackend) => {
    it("holds the project's lock until the changing transaction ends", async () => {
      const ctx = await createTestContext({ metadata: backend });
      try {
        const owner = await person(ctx, "owner@lock.test");
        const project = (await owner.client.post("/api/v1/projects", { name: "Locked" })).json<{
          id: string;
        }>();
        const db = ctx.deps.metadata.db;
        let release = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let locked = () => {};
        const isLocked = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const first = db.transaction().execute(async (trx) => {
          await createMembersRepo(trx).lockProject(project.id);
          locked();
          await held;
        });
        await isLocked;
        // A second change of the same project waits for the first: here it gives up at once.
        const second = db.transaction().execute(async (trx) => {
          await sql`set local lock_timeout = '50ms'`.execute(trx);
          await createMembersRepo(trx).lockProject(project.id);
        });
        try {
          await expect(second).rejects.toMatchObject({ code: "55P03" });
        } finally {
          release();
          await first;
        }
        await db.transaction().execute((trx) => createMembersRepo(trx).lockProject(project.id));
      } finally {
        await ctx.close();
      }
    });
  },
);
