// The dashboard's cookie session: signing in by link or password sets an HttpOnly cookie that
// is accepted wherever a bearer token is, revoked at once like any session, never outlives the
// session's absolute expiry, and every cookie-authenticated write is CSRF-checked. Bearer
// clients are unaffected.
import { SESSION_COOKIE_NAME } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { magicLinkTokenOf, outboxMessagesFor } from "../support/mail.js";
import { expectProblem } from "../support/problem.js";

const ORIGIN = "http://localhost:8080";
const UA = "Mozilla/5.0 (X11; Linux x86_64) TestBrowser/1.0";
/** What the dashboard sends with every write. */
const SAME_ORIGIN = { origin: ORIGIN, "x-sightline-csrf": "1" } as const;

type Injected = Awaited<ReturnType<TestContext["app"]["inject"]>>;

function setCookieOf(response: Injected): string {
  const header = response.headers["set-cookie"];
  const value = Array.isArray(header) ? header.join("\n") : String(header ?? "");
  expect(value).toContain(`${SESSION_COOKIE_NAME}=`);
  return value;
}

function cookieHeaderOf(response: Injected): { cookie: string } {
  const value = setCookieOf(response);
  const pair = value.split(";")[0] as string;
  return { cookie: pair };
}

describe("browser session cookie", () => {
  let ctx: TestContext;
  let clock: ManualClock;
  let ipCounter = 0;
  const nextIp = () => `10.9.0.${++ipCounter}`;

  async function linkToken(email: string): Promise<string> {
    // A minute apart, so the 3-links-a-minute limit per address never interferes.
    clock.advance(61_000);
    const ip = nextIp();
    const sent = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/magic-link",
      payload: { email },
      remoteAddress: ip,
    });
    expect(sent.statusCode).toBe(200);
    await ctx.deps.mail.flush();
    const newest = (await outboxMessagesFor(ctx.config.paths.outbox, email)).at(-1) as string;
    return magicLinkTokenOf(newest);
  }

  async function browserSignIn(email: string, body: Record<string, unknown> = {}): Promise<Injected> {
    return ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/session",
      headers: { ...SAME_ORIGIN, "user-agent": UA },
      payload: { token: await linkToken(email), ...body },
      remoteAddress: nextIp(),
    });
  }

  beforeAll(async () => {
    clock = manualClock();
    ctx = await createTestContext({ clock, env: { PUBLIC_URL: ORIGIN } });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("signs in with a link token into an HttpOnly, SameSite=Lax cookie and answers no token", async () => {
    const response = await browserSignIn("cookie-a@example.com");
    expect(response.statusCode).toBe(200);
    const setCookie = setCookieOf(response);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/);
    const maxAge = Number(/Max-Age=(\d+)/.exec(setCookie)?.[1]);
    expect(maxAge).toBeGreaterThan(30 * 86400 - 60);
    expect(maxAge).toBeLessThanOrEqual(30 * 86400);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(["email", "expires_at", "session_id", "user_id"]);
    expect(response.body).not.toMatch(/token/);
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("is accepted wherever a bearer token is, and lists the session with the browser's user agent", async () => {
    const cookie = cookieHeaderOf(await browserSignIn("cookie-b@example.com"));
    const me = await ctx.app.inject({ url: "/api/v1/users/me", headers: cookie });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe("cookie-b@example.com");

    const session = (await ctx.app.inject({ url: "/api/v1/auth/session", headers: cookie })).json();
    const sessions = await ctx.app.inject({ url: "/api/v1/users/sessions", headers: cookie });
    const current = sessions.json().find((s: { is_current: boolean }) => s.is_current);
    expect(current).toMatchObject({ id: session.session_id, device_info: UA });

    const projects = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/projects",
      headers: { ...cookie, ...SAME_ORIGIN },
      payload: { name: "Cookie Shop" },
    });
    expect(projects.statusCode).toBe(201);
  });

  it("refuses cookie-authenticated writes without the CSRF header or from another origin", async () => {
    const cookie = cookieHeaderOf(await browserSignIn("cookie-c@example.com"));
    const attempt = (headers: Record<string, string>) =>
      ctx.app.inject({
        method: "PATCH",
        url: "/api/v1/users/me",
        headers: { ...cookie, ...headers },
        payload: { first_name: "Mallory" },
      });

    expectProblem(await attempt({ origin: ORIGIN }), "csrf_rejected");
    expectProblem(
      await attempt({ origin: "https://evil.example", "x-sightline-csrf": "1" }),
      "csrf_rejected",
    );
    expectProblem(await attempt({ "x-sightline-csrf": "1" }), "csrf_rejected");
    expectProblem(await attempt({ ...SAME_ORIGIN, "sec-fetch-site": "cross-site" }), "csrf_rejected");
    expectProblem(
      await attempt({ referer: "https://evil.example/page", "x-sightline-csrf": "1" }),
      "csrf_rejected",
    );
    const profile = (await ctx.app.inject({ url: "/api/v1/users/me", headers: cookie })).json();
    expect(profile.first_name).toBe("");

    // The request's own Host is the sender's to choose: naming it does not make an origin ours.
    const forgedHost = await attempt({
      host: "evil.example",
      origin: "http://evil.example",
      "x-sightline-csrf": "1",
    });
    expect(expectProblem(forgedHost, "csrf_rejected").detail).toContain("http://evil.example");
    expectProblem(
      await attempt({ host: "localhost:80", origin: "http://localhost:80", "x-sightline-csrf": "1" }),
      "csrf_rejected",
    );

    const viaReferer = await attempt({ referer: `${ORIGIN}/account`, "x-sightline-csrf": "1" });
    expect(viaReferer.statusCode).toBe(200);
    const sameOrigin = await attempt(SAME_ORIGIN);
    expect(sameOrigin.statusCode).toBe(200);
    expect(sameOrigin.json().first_name).toBe("Mallory");
  });

  it("accepts writes from a PUBLIC_URL_ALIASES origin, and refuses others", async () => {
    const aliased = await createTestContext({
      clock,
      env: { PUBLIC_URL: ORIGIN, PUBLIC_URL_ALIASES: "http://127.0.0.1:8080" },
    });
    try {
      const token = await (async () => {
        clock.advance(61_000);
        await aliased.app.inject({
          method: "POST",
          url: "/api/v1/auth/magic-link",
          payload: { email: "alias@example.com" },
        });
        await aliased.deps.mail.flush();
        const newest = (await outboxMessagesFor(aliased.config.paths.outbox, "alias@example.com")).at(
          -1,
        ) as string;
        return magicLinkTokenOf(newest);
      })();
      const signedIn = await aliased.app.inject({
        method: "POST",
        url: "/api/v1/auth/session",
        headers: { origin: "http://127.0.0.1:8080", "x-sightline-csrf": "1" },
        payload: { token },
      });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const write = (origin: string) =>
        aliased.app.inject({
          method: "PATCH",
          url: "/api/v1/users/me",
          headers: { ...cookieHeaderOf(signedIn), origin, "x-sightline-csrf": "1" },
          payload: { first_name: "Alias" },
        });
      expect((await write("http://127.0.0.1:8080")).statusCode).toBe(200);
      expect((await write(ORIGIN)).statusCode).toBe(200);
      expectProblem(await write("http://127.0.0.1:5173"), "csrf_rejected");
    } finally {
      await aliased.close();
    }
  });

  it("leaves bearer clients alone: no CSRF header needed, any Origin, and the bearer wins over a cookie", async () => {
    const bearer = await signIn(ctx, "bearer-d@example.com", { ip: nextIp() });
    const created = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/projects",
      headers: { ...bearer.headers, origin: "https://elsewhere.example" },
      payload: { name: "Bearer Shop" },
    });
    expect(created.statusCode).toBe(201);

    const cookie = cookieHeaderOf(await browserSignIn("cookie-d2@example.com"));
    const both = await ctx.app.inject({ url: "/api/v1/users/me", headers: { ...cookie, ...bearer.headers } });
    expect(both.json().email).toBe("bearer-d@example.com");
  });

  it("refuses a cross-site sign-in (login CSRF) and a forged or tampered cookie", async () => {
    const token = await linkToken("cookie-e@example.com");
    const crossSite = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/session",
      headers: { origin: "https://evil.example", "x-sightline-csrf": "1" },
      payload: { token },
    });
    expectProblem(crossSite, "csrf_rejected");
    // The link was not spent by the refused attempt.
    const signedIn = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/session",
      headers: SAME_ORIGIN,
      payload: { token },
    });
    expect(signedIn.statusCode).toBe(200);
    const { cookie } = cookieHeaderOf(signedIn);
    const tampered = `${cookie.slice(0, -3)}${cookie.endsWith("A") ? "B" : "A"}xx`;
    const refused = await ctx.app.inject({ url: "/api/v1/users/me", headers: { cookie: tampered } });
    expectProblem(refused, "authentication_error");
    expect(String(refused.headers["set-cookie"])).toMatch(/Max-Age=0/);
  });

  it("sets Secure when PUBLIC_URL is https", async () => {
    const secureCtx = await createTestContext({ env: { PUBLIC_URL: "https://sightline.example" } });
    try {
      const sent = await secureCtx.app.inject({
        method: "POST",
        url: "/api/v1/auth/magic-link",
        payload: { email: "secure@example.com" },
      });
      expect(sent.statusCode).toBe(200);
      await secureCtx.deps.mail.flush();
      const message = (await outboxMessagesFor(secureCtx.config.paths.outbox, "secure@example.com")).at(-1);
      const response = await secureCtx.app.inject({
        method: "POST",
        url: "/api/v1/auth/session",
        headers: { origin: "https://sightline.example", "x-sightline-csrf": "1" },
        payload: { token: magicLinkTokenOf(message as string) },
      });
      expect(response.statusCode).toBe(200);
      expect(setCookieOf(response)).toMatch(/; Secure/);
    } finally {
      await secureCtx.close();
    }
  });

  it("signs out: the cookie is cleared and its session refused at once", async () => {
    const cookie = cookieHeaderOf(await browserSignIn("cookie-f@example.com"));
    const out = await ctx.app.inject({
      method: "DELETE",
      url: "/api/v1/auth/session",
      headers: { ...cookie, ...SAME_ORIGIN },
    });
    expect(out.statusCode).toBe(200);
    expect(setCookieOf(out)).toMatch(/Max-Age=0/);
    const after = await ctx.app.inject({ url: "/api/v1/users/me", headers: cookie });
    expectProblem(after, "authentication_error");
  });

  it("answers the session state without an error status to a visitor who never signed in", async () => {
    const state = (headers: Record<string, string> = {}) =>
      ctx.app.inject({ url: "/api/v1/auth/session/state", headers });
    const visitor = await state();
    expect({ status: visitor.statusCode, body: visitor.json() }).toEqual({
      status: 200,
      body: { session: null },
    });
    expect(visitor.headers["cache-control"]).toBe("no-store");

    const cookie = cookieHeaderOf(await browserSignIn("cookie-state@example.com"));
    const live = await state(cookie);
    const described = (await ctx.app.inject({ url: "/api/v1/auth/session", headers: cookie })).json();
    expect({ status: live.statusCode, body: live.json() }).toEqual({
      status: 200,
      body: { session: described },
    });

    // A session that ended is still told apart (401, cookie cleared): the "session ended" case.
    await ctx.app.inject({
      method: "DELETE",
      url: "/api/v1/auth/session",
      headers: { ...cookie, ...SAME_ORIGIN },
    });
    const ended = await state(cookie);
    expectProblem(ended, "authentication_error");
    expect(setCookieOf(ended)).toMatch(/Max-Age=0/);
  });

  it("ends with logout-all, logout-others from elsewhere, session revoke and account deletion", async () => {
    const email = "cookie-g@example.com";
    const first = cookieHeaderOf(await browserSignIn(email));
    const second = cookieHeaderOf(await browserSignIn(email));
    const bearer = await signIn(ctx, email, { ip: nextIp() });

    // Revoking another session leaves this cookie alone; revoking its own clears it.
    const secondId = (await ctx.app.inject({ url: "/api/v1/auth/session", headers: second })).json()
      .session_id;
    const revokeOther = await ctx.app.inject({
      method: "DELETE",
      url: `/api/v1/users/sessions/${secondId}`,
      headers: { ...first, ...SAME_ORIGIN },
    });
    expect(revokeOther.statusCode).toBe(200);
    expect(revokeOther.headers["set-cookie"]).toBeUndefined();
    expectProblem(await ctx.app.inject({ url: "/api/v1/users/me", headers: second }), "authentication_error");

    // A bearer client signing out the others ends the cookie session on its next request.
    await ctx.app.inject({ method: "POST", url: "/api/v1/users/logout-others", headers: bearer.headers });
    expectProblem(await ctx.app.inject({ url: "/api/v1/users/me", headers: first }), "authentication_error");

    const third = cookieHeaderOf(await browserSignIn(email));
    const all = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/users/logout-all",
      headers: { ...third, ...SAME_ORIGIN },
    });
    expect(all.statusCode).toBe(200);
    expect(setCookieOf(all)).toMatch(/Max-Age=0/);
    expectProblem(await ctx.app.inject({ url: "/api/v1/users/me", headers: third }), "authentication_error");

    const fourth = cookieHeaderOf(await browserSignIn(email));
    const fourthId = (await ctx.app.inject({ url: "/api/v1/auth/session", headers: fourth })).json()
      .session_id;
    const revokeOwn = await ctx.app.inject({
      method: "DELETE",
      url: `/api/v1/users/sessions/${fourthId}`,
      headers: { ...fourth, ...SAME_ORIGIN },
    });
    expect(setCookieOf(revokeOwn)).toMatch(/Max-Age=0/);

    const fifth = cookieHeaderOf(await browserSignIn(email));
    const deleted = await ctx.app.inject({
      method: "DELETE",
      url: "/api/v1/users/me",
      headers: { ...fifth, ...SAME_ORIGIN },
    });
    expect(deleted.statusCode).toBe(200);
    expect(setCookieOf(deleted)).toMatch(/Max-Age=0/);
    expectProblem(await ctx.app.inject({ url: "/api/v1/users/me", headers: fifth }), "authentication_error");
  });

  it("honours remember_me=false: a browser-session cookie and a session that ends after 24 hours", async () => {
    const response = await browserSignIn("cookie-h@example.com", { remember_me: false });
    expect(setCookieOf(response)).not.toMatch(/Max-Age/);
    const session = response.json();
    const lifetime = Date.parse(session.expires_at) - clock.now().getTime();
    expect(lifetime).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3600_000);
    const cookie = cookieHeaderOf(response);

    clock.advance(23 * 3600_000);
    const stillThere = await ctx.app.inject({ url: "/api/v1/auth/session", headers: cookie });
    expect(stillThere.statusCode).toBe(200);
    // Use never extends the session.
    expect(stillThere.json().expires_at).toBe(session.expires_at);

    clock.advance(3600_000 + 1000);
    expectProblem(await ctx.app.inject({ url: "/api/v1/users/me", headers: cookie }), "authentication_error");
  });

  it("signs in with a password and changes it without handing the browser any token", async () => {
    const email = "cookie-i@example.com";
    const cookie = cookieHeaderOf(await browserSignIn(email));
    const other = cookieHeaderOf(await browserSignIn(email));
    const set = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/session/change-password",
      headers: { ...cookie, ...SAME_ORIGIN },
      payload: { new_password: "a long passphrase 1", confirm_password: "a long passphrase 1" },
    });
    expect(set.statusCode).toBe(200);
    expect(Object.keys(set.json())).toEqual(["message"]);
    expect((await ctx.app.inject({ url: "/api/v1/users/me", headers: cookie })).statusCode).toBe(200);
    expectProblem(await ctx.app.inject({ url: "/api/v1/users/me", headers: other }), "authentication_error");

    const wrong = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/session/password",
      headers: SAME_ORIGIN,
      payload: { email, password: "not it at all" },
    });
    expectProblem(wrong, "authentication_error");
    const right = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/session/password",
      headers: { ...SAME_ORIGIN, "user-agent": UA },
      payload: { email, password: "a long passphrase 1", remember_me: false },
    });
    expect(right.statusCode).toBe(200);
    expect(setCookieOf(right)).not.toMatch(/Max-Age/);
  });

  it("refuses a used link with token_invalid and does not set a cookie", async () => {
    const token = await linkToken("cookie-j@example.com");
    const first = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/session",
      headers: SAME_ORIGIN,
      payload: { token },
    });
    expect(first.statusCode).toBe(200);
    const again = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/session",
      headers: SAME_ORIGIN,
      payload: { token },
    });
    expectProblem(again, "token_invalid");
    expect(again.headers["set-cookie"]).toBeUndefined();
  });

  it("without a cookie or a token, answers 401 as before", async () => {
    expectProblem(await ctx.app.inject({ url: "/api/v1/auth/session" }), "authentication_error");
  });
});
