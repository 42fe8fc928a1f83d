// The password lockouts hold under concurrency on every metadata backend: attempts are counted
// before argon2 runs, so parallel guesses cannot outrun the 10 failures per address, and one
// client address gets 30 failures in 15 minutes whatever accounts it tries (password spraying).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";

const WINDOW_MS = 15 * 60_000;
const PASSWORD = "a long passphrase";

describe.each(metadataBackends())("password lockout on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let clock: ManualClock;
  let ipCounter = 0;
  /** A client address no other test here uses. */
  const freshIp = () => `203.0.113.${(ipCounter += 1)}`;

  beforeAll(async () => {
    // One minute into a 15-minute window, so no test straddles two windows.
    const start = Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS + 60_000;
    clock = manualClock(new Date(start));
    ctx = await createTestContext({ metadata: backend, clock });
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(() => clock.advance(WINDOW_MS));

  async function accountWithPassword(email: string): Promise<void> {
    const user = await signIn(ctx, email, { ip: freshIp() });
    const set = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/users/me/password",
      headers: user.headers,
      payload: { new_password: PASSWORD, confirm_password: PASSWORD },
    });
    expect(set.statusCode, set.body).toBe(200);
  }

  const login = (email: string, password: string, ip: string) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email, password },
      remoteAddress: ip,
    });

  it("evaluates exactly 10 of 24 concurrent wrong guesses for one address and locks it", async () => {
    await accountWithPassword("target@example.com");
    // Each guess from its own address: only the per-address lockout is in play.
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => login("target@example.com", `wrong guess ${i}`, freshIp())),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(14);
    for (const answer of answers.filter((a) => a.statusCode === 429)) expectProblem(answer, "rate_limited");

    expectProblem(await login("target@example.com", PASSWORD, freshIp()), "rate_limited");
    clock.advance(WINDOW_MS);
    expect((await login("target@example.com", PASSWORD, freshIp())).statusCode).toBe(200);
  });

  it("gives one client address 30 failures in 15 minutes across any accounts, even concurrently", async () => {
    const sprayer = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(`victim-${i}@example.com`, "Summer2026!", sprayer)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const limited = expectProblem(answers.find((a) => a.statusCode === 429) ?? answers[0]!, "rate_limited");
    expect(limited.detail).toContain("network address");
    const retryAfter = Number(answers.find((a) => a.statusCode === 429)?.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);

    // Another address is not affected; the window's end frees this one.
    expect((await login("victim-0@example.com", "Summer2026!", freshIp())).statusCode).toBe(401);
    clock.advance(retryAfter * 1000);
    expect((await login("victim-0@example.com", "Summer2026!", sprayer)).statusCode).toBe(401);
  });

  it("does not count successful logins against the client address", async () => {
    await accountWithPassword("regular@example.com");
    const office = freshIp();
    for (let i = 0; i < 29; i += 1) {
      expect((await login(`typo-${i}@example.com`, "nope nope nope", office)).statusCode).toBe(401);
    }
    for (let i = 0; i < 5; i += 1) {
      expect((await login("regular@example.com", PASSWORD, office)).statusCode).toBe(200);
    }
    expect((await login("typo-last@example.com", "nope nope nope", office)).statusCode).toBe(401);
    expectProblem(await login("regular@example.com", PASSWORD, office), "rate_limited");
  });
});
