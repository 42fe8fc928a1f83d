// Tenant isolation: another user's project answers exactly like a missing one and appears in no
// listing. That every project and app route answers outsiders 404 is shown for each route of the
// route table by the generated suite, test/access/role-matrix.int.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";

describe.each(metadataBackends())("tenant isolation on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let owner: Client;
  let stranger: Client;

  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend });
    owner = clientFor(ctx.app, (await signIn(ctx, "owner@example.com")).headers);
    stranger = clientFor(ctx.app, (await signIn(ctx, "stranger@example.com")).headers);
    await owner.post("/api/v1/projects", { name: "Secret" });
    await owner.post("/api/v1/projects/secret/apps", { name: "Vault" });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("answers for another user's project exactly as for a missing one", async () => {
    const other = await stranger.get("/api/v1/projects/secret");
    const missing = await stranger.get("/api/v1/projects/nothing-here");
    const strip = (body: string) => {
      const {
        request_id: _id,
        instance: _instance,
        detail: _detail,
        ...rest
      } = JSON.parse(body) as Record<string, unknown>;
      return rest;
    };
    expect(strip(other.body)).toEqual(strip(missing.body));
    expect(JSON.parse(other.body).detail).toBe('Project "secret" not found.');
  });

  it("shows the stranger nothing of the owner's projects and apps", async () => {
    expect((await stranger.get("/api/v1/projects")).json()).toEqual([]);
    expect((await stranger.get("/api/v1/apps")).json()).toEqual([]);
    expect((await stranger.get("/api/v1/users/context")).json()).toMatchObject({ projects: [] });
    expect((await owner.get("/api/v1/projects/secret")).json()).toMatchObject({ name: "Secret" });
  });
});
