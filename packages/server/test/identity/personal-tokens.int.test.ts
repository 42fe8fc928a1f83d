// Personal access tokens over HTTP on every metadata backend: created in a session and shown
// once, stored hashed, listed, revoked at once; accepted as a bearer with the owner's role capped
// by scope and projects; expiry, last use once a minute, the per-token rate limit, the audit
// entries of token writes, and revocation with the account.
import type { CreatedPersonalToken, PersonalTokenList } from "@sightline/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/ids.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { clientFor } from "../support/client.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { type Person, person } from "../support/team.js";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let serial = 0;

/** Creates a token as `who` (over their session) and a client that calls with it. */
async function createToken(who: Person, body: Record<string, unknown> = {}) {
  serial += 1;
  const reply = await who.client.post("/api/v1/users/me/tokens", {
    name: `script ${serial}`,
    scope: "read-write",
    expires_in_days: 30,
    ...body,
  });
  expect(reply.statusCode, reply.body).toBe(201);
  return reply.json<CreatedPersonalToken>();
}

describe.each(metadataBackends())("personal access tokens on $name", (backend) => {
  let ctx: TestContext;
  let clock: ManualClock;
  const bearer = (token: string) => clientFor(ctx.app, { authorization: `Bearer ${token}` });

  beforeAll(async () => {
    clock = manualClock(new Date("2026-11-20T10:00:00.000Z"));
    ctx = await createTestContext({ metadata: backend, clock });
  });
  afterAll(async () => {
    await ctx?.close();
  });
  // Fresh sessions per test: the manual clock may have outrun their access tokens.
  beforeEach(() => clock.advance(MINUTE + 1));

  it("shows the secret once, stores only its hash, lists and revokes it at once", async () => {
    const ada = await person(ctx, "ada@tokens.test");
    const created = await createToken(ada, { name: " nightly ", scope: "read", expires_in_days: 90 });
    expect(created.token).toMatch(/^sl_pat_[0-9A-Za-z]{40,80}$/);
    expect(created.token.startsWith(created.prefix)).toBe(true);
    expect(created).toMatchObject({ name: "nightly", scope: "read", projects: null, last_used_at: null });
    expect(Date.parse(created.expires_at as string) - Date.parse(created.created_at)).toBe(90 * DAY);

    const row = await ctx.deps.metadata.db
      .selectFrom("personal_access_tokens")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256Hex(created.token));
    expect(Object.values(row).some((value) => value === created.token)).toBe(false);

    const listed = (await ada.client.get("/api/v1/users/me/tokens")).json<PersonalTokenList>();
    expect(listed.tokens.map((token) => token.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect(listed.tokens[0]).toMatchObject({ prefix: created.prefix, is_expired: false });

    expect((await bearer(created.token).get("/api/v1/users/me")).statusCode).toBe(200);
    const revoked = await ada.client.delete(`/api/v1/users/me/tokens/${created.id}`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expectProblem(await bearer(created.token).get("/api/v1/users/me"), "authentication_error");
    expect((await ada.client.get("/api/v1/users/me/tokens")).json<PersonalTokenList>().tokens).toEqual([]);
    expectProblem(await ada.client.delete(`/api/v1/users/me/tokens/${created.id}`), "not_found");
  });

  it("cannot manage tokens with a token, nor another user's tokens", async () => {
    const ada = await person(ctx, "ada2@tokens.test");
    const eve = await person(ctx, "eve@tokens.test");
    const token = await createToken(ada);
    const client = bearer(token.token);
    for (const reply of [
      await client.post("/api/v1/users/me/tokens", { name: "x", scope: "read", expires_in_days: null }),
      await client.get("/api/v1/users/me/tokens"),
      await client.delete(`/api/v1/users/me/tokens/${token.id}`),
      await client.get("/api/v1/users/sessions"),
      await client.delete("/api/v1/users/me"),
    ]) {
      expectProblem(reply, "forbidden");
    }
    expectProblem(await eve.client.delete(`/api/v1/users/me/tokens/${token.id}`), "not_found");
    expect((await client.get("/api/v1/users/me")).statusCode).toBe(200);
  });

  it("refuses bad bodies with 422", async () => {
    const ada = await person(ctx, "ada3@tokens.test");
    const other = await person(ctx, "other@tokens.test");
    expect((await other.client.post("/api/v1/projects", { name: "Theirs", slug: "theirs" })).statusCode).toBe(
      201,
    );
    for (const body of [
      { name: "x", scope: "read", expires_in_days: 366 },
      { name: "x", scope: "read", expires_in_days: 0 },
      { name: "x", scope: "admin", expires_in_days: null },
      { name: "   ", scope: "read", expires_in_days: null },
      { name: "x", scope: "read" },
      { name: "x", scope: "read", expires_in_days: null, project_slugs: ["theirs"] },
      { name: "x", scope: "read", expires_in_days: null, project_slugs: [] },
    ]) {
      const reply = await ada.client.post("/api/v1/users/me/tokens", body);
      expect({ body, status: reply.statusCode }).toEqual({ body, status: 422 });
    }
    const never = await createToken(ada, { expires_in_days: null });
    expect(never.expires_at).toBeNull();
  });

  it("stops an expired token and marks it in the list", async () => {
    const ada = await person(ctx, "ada4@tokens.test");
    const token = await createToken(ada, { expires_in_days: 1 });
    expect((await bearer(token.token).get("/api/v1/projects")).statusCode).toBe(200);
    clock.advance(DAY);
    expectProblem(await bearer(token.token).get("/api/v1/projects"), "authentication_error");
    const again = await person(ctx, "ada4@tokens.test");
    const listed = (await again.client.get("/api/v1/users/me/tokens")).json<PersonalTokenList>();
    expect(listed.tokens.find((item) => item.id === token.id)?.is_expired).toBe(true);
  });

  it("limits a token to its projects in lists and context, and caps a read-only token's permissions", async () => {
    const ada = await person(ctx, "ada5@tokens.test");
    for (const slug of ["alpha", "beta"]) {
      const made = await ada.client.post("/api/v1/projects", { name: slug, slug });
      expect(made.statusCode, made.body).toBe(201);
      expect(
        (await ada.client.post(`/api/v1/projects/${slug}/apps`, { name: `${slug} api` })).statusCode,
      ).toBe(201);
    }
    const limited = bearer((await createToken(ada, { scope: "read", project_slugs: ["alpha"] })).token);
    const slugs = (await limited.get("/api/v1/projects")).json<{ items?: unknown }>();
    expect(JSON.stringify(slugs)).toContain('"alpha"');
    expect(JSON.stringify(slugs)).not.toContain('"beta"');
    const apps = (await limited.get("/api/v1/apps")).body;
    expect(apps).toContain("alpha-api");
    expect(apps).not.toContain("beta-api");
    expectProblem(await limited.get("/api/v1/projects/beta"), "not_found");
    expectProblem(await limited.get("/api/v1/apps/beta-api"), "not_found");
    const context = (await limited.get("/api/v1/users/context")).json<{
      projects: Array<{ slug: string; role: string; permissions: string[] }>;
    }>();
    expect(context.projects.map((project) => project.slug)).toEqual(["alpha"]);
    expect(context.projects[0]?.role).toBe("owner");
    expect(context.projects[0]?.permissions.sort()).toEqual(
      ["alerts:read", "audit:read", "contract:read", "data:read", "project:read"].sort(),
    );
    expectProblem(await limited.patch("/api/v1/projects/alpha", { description: "no" }), "forbidden");
    expectProblem(await limited.patch("/api/v1/users/me", { first_name: "No" }), "forbidden");
  });

  it("records last use at most once a minute", async () => {
    const ada = await person(ctx, "ada6@tokens.test");
    const token = await createToken(ada);
    const lastUsed = async () => {
      const session = await person(ctx, "ada6@tokens.test");
      const listed = (await session.client.get("/api/v1/users/me/tokens")).json<PersonalTokenList>();
      return listed.tokens.find((item) => item.id === token.id)?.last_used_at;
    };
    const first = clock.now().toISOString();
    expect((await bearer(token.token).get("/api/v1/users/me")).statusCode).toBe(200);
    expect(await lastUsed()).toBe(first);
    clock.advance(30_000);
    expect((await bearer(token.token).get("/api/v1/users/me")).statusCode).toBe(200);
    expect(await lastUsed()).toBe(first);
    clock.advance(31_000);
    const later = clock.now().toISOString();
    expect((await bearer(token.token).get("/api/v1/users/me")).statusCode).toBe(200);
    expect(await lastUsed()).toBe(later);
  });

  it("audits a token's writes in the project, not its reads", async () => {
    const ada = await person(ctx, "ada7@tokens.test");
    expect((await ada.client.post("/api/v1/projects", { name: "Gamma", slug: "gamma" })).statusCode).toBe(
      201,
    );
    const token = await createToken(ada);
    const client = bearer(token.token);
    const auditLog = async () =>
      (await ada.client.get("/api/v1/projects/gamma/audit-log")).json<{
        items: Array<{
          action: string;
          actor: { id: string } | null;
          target: { label: string };
          details: object;
        }>;
      }>().items;
    const before = (await auditLog()).length;
    expect((await client.get("/api/v1/projects/gamma/apps")).statusCode).toBe(200);
    expectProblem(await client.patch("/api/v1/projects/gamma", { slug: "NOT A SLUG" }), "validation_error");
    expect((await auditLog()).length).toBe(before);
    expect((await client.post("/api/v1/projects/gamma/apps", { name: "Shop" })).statusCode).toBe(201);
    const items = await auditLog();
    const used = items.find((item) => item.action === "token.used");
    expect(used).toMatchObject({
      actor: { user_id: ada.userId },
      target: { label: token.prefix },
      details: { method: "POST", route: "/api/v1/projects/:project_slug/apps", status: 201 },
    });
    expect(items.some((item) => item.action === "app.created")).toBe(true);
  });

  it("revokes every token of a deleted account", async () => {
    const ada = await person(ctx, "ada8@tokens.test");
    const tokens = [await createToken(ada), await createToken(ada, { scope: "read" })];
    expect((await ada.client.delete("/api/v1/users/me")).statusCode).toBe(200);
    for (const token of tokens) {
      expectProblem(await bearer(token.token).get("/api/v1/users/me"), "authentication_error");
    }
    const rows = await ctx.deps.metadata.db
      .selectFrom("personal_access_tokens")
      .select("revoked_at")
      .where("user_id", "=", ada.userId)
      .execute();
    expect(rows.length).toBe(2);
    expect(rows.every((row) => row.revoked_at !== null)).toBe(true);
  });
});

describe("the per-token rate limit", () => {
  let ctx: TestContext;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = manualClock(new Date("2026-11-20T10:00:00.000Z"));
    ctx = await createTestContext({ clock, env: { PAT_REQUESTS_PER_MINUTE: "3" } });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("answers 429 with Retry-After past the limit, per token, and refills with time", async () => {
    const ada = await person(ctx, "ada@limits.test");
    const first = clientFor(ctx.app, { authorization: `Bearer ${(await createToken(ada)).token}` });
    const second = clientFor(ctx.app, { authorization: `Bearer ${(await createToken(ada)).token}` });
    for (let i = 0; i < 3; i += 1) expect((await first.get("/api/v1/users/me")).statusCode).toBe(200);
    const limited = await first.get("/api/v1/users/me");
    expectProblem(limited, "rate_limited");
    expect(Number(limited.headers["retry-after"])).toBe(20);
    expect((await second.get("/api/v1/users/me")).statusCode).toBe(200);
    clock.advance(20_000);
    expect((await first.get("/api/v1/users/me")).statusCode).toBe(200);
    expectProblem(await first.get("/api/v1/users/me"), "rate_limited");
  });
});
