// The signIn() helper other suites build on: the real magic-link flow through the dev mailer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { metadataBackends } from "../support/metadata.js";

describe.each(metadataBackends())("signIn() test helper on $name", (backend) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("signs a new address in and the tokens work on a bearer route", async () => {
    const ada = await signIn(ctx, "Ada@Example.com");
    const me = await ctx.app.inject({ url: "/api/v1/users/me", headers: ada.headers });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: ada.userId, email: "ada@example.com", email_verified: true });
    expect(ada.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("signs the same address in again as the same user, in a second session", async () => {
    const first = await signIn(ctx, "grace@example.com");
    const second = await signIn(ctx, "grace@example.com");
    expect(second.userId).toBe(first.userId);
    const sessions = await ctx.app.inject({ url: "/api/v1/users/sessions", headers: second.headers });
    expect(sessions.json()).toHaveLength(2);
  });
});
