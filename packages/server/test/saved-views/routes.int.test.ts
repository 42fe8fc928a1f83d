// The saved-view routes on SQLite and PostgreSQL, with a team of every role: each person saves
// their own views (viewers too), sees the shared views of others and may apply but not change
// them, a view unshared disappears for others, bad filters answer 422 and other projects' views 404.
import type { SavedView } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { signInTeam, type Team, teamProject } from "../support/team.js";

const P = "/api/v1/projects/views";

describe.each(metadataBackends())("saved views on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let team: Team;

  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend });
    team = await signInTeam(ctx);
    await teamProject(ctx, team, "views");
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const save = async (who: keyof Team, body: Record<string, unknown>): Promise<SavedView> => {
    const reply = await team[who].client.post(`${P}/saved-views`, body);
    expect(reply.statusCode, reply.body).toBe(201);
    return reply.json<SavedView>();
  };

  it("lets a viewer save a private view that only they see", async () => {
    const view = await save("viewer", {
      page: "requests",
      name: "My slow calls",
      filters: { status: "5xx", q: "/checkout" },
    });
    expect(view).toMatchObject({
      page: "requests",
      name: "My slow calls",
      filters: { status: "5xx", q: "/checkout" },
      shared: false,
      owner_id: team.viewer.userId,
      owner_email: team.viewer.email,
      mine: true,
    });
    const own = (await team.viewer.client.get(`${P}/saved-views?page=requests`)).json<SavedView[]>();
    expect(own.map((v) => v.id)).toContain(view.id);
    const others = (await team.member.client.get(`${P}/saved-views`)).json<SavedView[]>();
    expect(others.map((v) => v.id)).not.toContain(view.id);
    expectProblem(await team.member.client.get(`${P}/saved-views/${view.id}`), "not_found");
    expectProblem(await team.member.client.delete(`${P}/saved-views/${view.id}`), "not_found");
  });

  it("shows a shared view to every member, who may read but not change or delete it", async () => {
    const view = await save("member", {
      page: "logs",
      name: "Errors of web",
      filters: { app: "web", level: "error" },
      shared: true,
    });
    for (const who of ["owner", "admin", "viewer"] as const) {
      const list = (await team[who].client.get(`${P}/saved-views?page=logs`)).json<SavedView[]>();
      const seen = list.find((v) => v.id === view.id);
      expect(seen, who).toMatchObject({ mine: false, shared: true, owner_email: team.member.email });
    }
    // Not even an owner of the project changes someone else's view.
    expectProblem(await team.owner.client.patch(`${P}/saved-views/${view.id}`, { name: "x" }), "forbidden");
    expectProblem(await team.owner.client.delete(`${P}/saved-views/${view.id}`), "forbidden");
    expectProblem(await team.outsider.client.get(`${P}/saved-views/${view.id}`), "not_found");

    const unshared = await team.member.client.patch(`${P}/saved-views/${view.id}`, {
      shared: false,
      name: "Errors of web (mine)",
      filters: { app: "web", level: "warn" },
    });
    expect(unshared.statusCode, unshared.body).toBe(200);
    expect(unshared.json<SavedView>()).toMatchObject({
      shared: false,
      name: "Errors of web (mine)",
      filters: { app: "web", level: "warn" },
    });
    const afterUnshare = (await team.admin.client.get(`${P}/saved-views`)).json<SavedView[]>();
    expect(afterUnshare.map((v) => v.id)).not.toContain(view.id);

    const deleted = await team.member.client.delete(`${P}/saved-views/${view.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expectProblem(await team.member.client.get(`${P}/saved-views/${view.id}`), "not_found");
  });

  it("answers bad input with 422 and a pointer, never a 500", async () => {
    const cases: Array<Record<string, unknown>> = [
      { page: "requests", name: "", filters: {} },
      { page: "Requests!", name: "x", filters: {} },
      { page: "requests", name: "x", filters: { "bad key": "1" } },
      { page: "requests", name: "x", filters: { status: 500 } },
      { page: "requests", name: "x", filters: {}, extra: true },
      { page: "requests", name: "x" },
    ];
    for (const body of cases) {
      const reply = await team.owner.client.post(`${P}/saved-views`, body);
      expect(reply.statusCode, JSON.stringify(body)).toBe(422);
      expectProblem(reply, "validation_error");
    }
    const view = await save("owner", { page: "requests", name: "x", filters: {} });
    expectProblem(await team.owner.client.patch(`${P}/saved-views/${view.id}`, {}), "validation_error");
    expectProblem(await team.owner.client.get(`${P}/saved-views/not-a-uuid`), "validation_error");
  });

  it("keeps views of a project to that project", async () => {
    await teamProject(ctx, team, "other-views");
    const view = await save("owner", {
      page: "requests",
      name: "Here",
      filters: { app: "web" },
      shared: true,
    });
    const elsewhere = await team.owner.client.get(`/api/v1/projects/other-views/saved-views/${view.id}`);
    expectProblem(elsewhere, "not_found");
    const list = (await team.owner.client.get("/api/v1/projects/other-views/saved-views")).json<
      SavedView[]
    >();
    expect(list).toEqual([]);
  });
});
