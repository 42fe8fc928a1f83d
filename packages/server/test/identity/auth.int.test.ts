// The auth routes over HTTP with a real SMTP server in the loop: sign-up and sign-in by magic
// link, enumeration safety, rate limits, password login and lockout, refresh rotation with
// reuse detection and racing refreshes, validation and logout — on every metadata backend.
import type { TokenPair } from "@sightline/contracts";
import { SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decodeQuotedPrintable, magicLinkTokenOf } from "../support/mail.js";
import { metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import {
  claimsOf,
  freshIp,
  type IdentityHarness,
  post,
  PUBLIC_URL,
  requestLinkToken,
  signInBySmtp,
  signed,
  startIdentityHarness,
} from "./helpers.js";

const MINUTE = 60_000;

describe.each(metadataBackends())("auth routes on $name", (backend) => {
  let h: IdentityHarness;
  beforeAll(async () => {
    h = await startIdentityHarness(backend);
  });
  afterAll(async () => {
    await h.close();
  });
  // Every test starts in fresh per-minute rate-limit windows.
  beforeEach(() => h.clock.advance(MINUTE + 1));

  const me = (headers: { authorization: string }) =>
    h.ctx.app.inject({ method: "GET", url: "/api/v1/users/me", headers });

  describe("magic link", () => {
    it("signs up a new address: the e-mail carries the link and the raw token", async () => {
      const response = await post(h, "/api/v1/auth/magic-link", { email: "New.User@Example.com" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: expect.any(String) });
      expect(response.headers["cache-control"]).toBe("no-store");

      const mail = await h.smtp.waitForMail("new.user@example.com");
      expect(mail.from).toBe("signin@sightline.test");
      expect(mail.raw).toMatch(/^From: Sightline <signin@sightline\.test>/m);
      expect(mail.raw).toMatch(/^Subject: Sign in to Sightline/m);
      const token = magicLinkTokenOf(mail.raw);
      const text = decodeQuotedPrintable(mail.raw);
      expect(text).toContain(`${PUBLIC_URL}/auth/verify?token=${token}`);
      // The raw token is shown on its own line as well as inside the link.
      expect(text).toMatch(new RegExp(`^${token}$`, "m"));
      expect(Buffer.from(token, "base64url")).toHaveLength(32);

      const verified = await post(h, "/api/v1/auth/verify", { token });
      expect(verified.statusCode).toBe(200);
      const pair = verified.json<TokenPair>();
      expect(pair).toEqual({
        access_token: expect.any(String),
        refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        token_type: "Bearer",
        expires_in: 900,
      });
      const claims = claimsOf(pair.access_token);
      expect(claims).toMatchObject({ email: "new.user@example.com", type: "access" });
      expect(claims.sub).toMatch(/^[0-9a-f-]{36}$/);
      expect(claims.sid).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number(claims.exp) - Number(claims.iat)).toBe(900);

      const profile = await me(signed(pair).headers);
      expect(profile.statusCode).toBe(200);
      expect(profile.json()).toMatchObject({
        id: claims.sub,
        email: "new.user@example.com",
        email_verified: true,
        has_password: false,
        display_name: "new.user",
        timezone: "UTC",
        picture: "",
      });
    });

    it("signs an existing address in to the same account", async () => {
      const first = await signInBySmtp(h, "returning@example.com");
      const second = await signInBySmtp(h, "RETURNING@example.com");
      expect(second.userId).toBe(first.userId);
      expect(claimsOf(second.pair.access_token).sid).not.toBe(claimsOf(first.pair.access_token).sid);
    });

    it("rejects a link used once already with token_invalid", async () => {
      const token = await requestLinkToken(h, "once@example.com");
      expect((await post(h, "/api/v1/auth/verify", { token })).statusCode).toBe(200);
      const again = expectProblem(await post(h, "/api/v1/auth/verify", { token }), "token_invalid");
      expect(again.detail).toMatch(/already been used/);
    });

    it("lets exactly one of two racing verifications of a link succeed", async () => {
      const token = await requestLinkToken(h, "race-link@example.com");
      const answers = await Promise.all([
        post(h, "/api/v1/auth/verify", { token }),
        post(h, "/api/v1/auth/verify", { token }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    });

    it("rejects a link after 15 minutes with token_expired", async () => {
      const token = await requestLinkToken(h, "late@example.com");
      h.clock.advance(15 * MINUTE + 1000);
      expectProblem(await post(h, "/api/v1/auth/verify", { token }), "token_expired");
    });

    it("rejects an unknown token with token_invalid and a malformed body with 422", async () => {
      expectProblem(await post(h, "/api/v1/auth/verify", { token: "x".repeat(43) }), "token_invalid");
      const body = expectProblem(await post(h, "/api/v1/auth/verify", { token: 42 }), "validation_error");
      expect(body.errors).toEqual([{ pointer: "/token", message: expect.any(String) }]);
    });

    it("answers a malformed address with 422 naming the field", async () => {
      const body = expectProblem(
        await post(h, "/api/v1/auth/magic-link", { email: "not-an-address" }),
        "validation_error",
      );
      expect(body.errors).toEqual([{ pointer: "/email", message: expect.stringContaining("email") }]);
    });

    it("answers known and unknown addresses identically", async () => {
      await signInBySmtp(h, "known@example.com");
      const known = await post(h, "/api/v1/auth/magic-link", { email: "known@example.com" });
      const unknown = await post(h, "/api/v1/auth/magic-link", { email: "nobody-here@example.com" });
      const shape = (r: typeof known) => {
        const { "x-request-id": _id, date: _date, ...headers } = r.headers;
        return { status: r.statusCode, body: r.body, headers };
      };
      expect(shape(unknown)).toEqual(shape(known));
    });

    it("answers before the mail is delivered, and retries a failed delivery", async () => {
      h.smtp.refuseNext(1);
      const before = h.smtp.mailsTo("retry@example.com").length;
      const response = await post(h, "/api/v1/auth/magic-link", { email: "retry@example.com" });
      expect(response.statusCode).toBe(200);
      expect(h.smtp.mailsTo("retry@example.com")).toHaveLength(before);
      // The first attempt is refused (451); the queue retries after a second.
      const mail = await h.smtp.waitForMail("retry@example.com", { after: before, timeoutMs: 5_000 });
      expect((await post(h, "/api/v1/auth/verify", { token: magicLinkTokenOf(mail.raw) })).statusCode).toBe(
        200,
      );
    });

    it("allows 3 links per minute per address, then 429 with Retry-After", async () => {
      for (let i = 0; i < 3; i += 1) {
        const ok = await post(
          h,
          "/api/v1/auth/magic-link",
          { email: "limited@example.com" },
          { ip: freshIp() },
        );
        expect(ok.statusCode).toBe(200);
      }
      const limited = await post(
        h,
        "/api/v1/auth/magic-link",
        { email: "Limited@example.com" },
        { ip: freshIp() },
      );
      expectProblem(limited, "rate_limited");
      const retryAfter = Number(limited.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      h.clock.advance(retryAfter * 1000);
      const later = await post(
        h,
        "/api/v1/auth/magic-link",
        { email: "limited@example.com" },
        { ip: freshIp() },
      );
      expect(later.statusCode).toBe(200);
    });

    it("allows 20 links per minute per client address, then 429 with Retry-After", async () => {
      const ip = freshIp();
      for (let i = 0; i < 20; i += 1) {
        const ok = await post(h, "/api/v1/auth/magic-link", { email: `burst${i}@example.com` }, { ip });
        expect(ok.statusCode).toBe(200);
      }
      const limited = await post(h, "/api/v1/auth/magic-link", { email: "burst-extra@example.com" }, { ip });
      expectProblem(limited, "rate_limited");
      expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      // Another client address is not affected.
      const other = await post(
        h,
        "/api/v1/auth/magic-link",
        { email: "burst-extra@example.com" },
        { ip: freshIp() },
      );
      expect(other.statusCode).toBe(200);
    });
  });

  describe("password login", () => {
    async function withPassword(email: string, password: string) {
      const user = await signInBySmtp(h, email);
      const set = await post(
        h,
        "/api/v1/users/me/password",
        { new_password: password, confirm_password: password },
        { headers: user.headers },
      );
      expect(set.statusCode, set.body).toBe(200);
      return user;
    }

    it("signs in with a password set through /users/me/password", async () => {
      const user = await withPassword("pw@example.com", "a long passphrase");
      const login = await post(h, "/api/v1/auth/login", {
        email: "PW@example.com",
        password: "a long passphrase",
      });
      expect(login.statusCode).toBe(200);
      const pair = login.json<TokenPair>();
      expect(pair.token_type).toBe("Bearer");
      expect(claimsOf(pair.access_token).sub).toBe(user.userId);
      const profile = await me(signed(pair).headers);
      expect(profile.json()).toMatchObject({ has_password: true, last_login_at: expect.any(String) });
    });

    it("answers a wrong password, an unknown account and a password-less account alike", async () => {
      await withPassword("has-pw@example.com", "a long passphrase");
      await signInBySmtp(h, "no-pw@example.com");
      const answers = await Promise.all([
        post(h, "/api/v1/auth/login", { email: "has-pw@example.com", password: "wrong guess 123" }),
        post(h, "/api/v1/auth/login", { email: "ghost@example.com", password: "wrong guess 123" }),
        post(h, "/api/v1/auth/login", { email: "no-pw@example.com", password: "wrong guess 123" }),
      ]);
      const details = answers.map((answer) => expectProblem(answer, "authentication_error").detail);
      expect(new Set(details).size).toBe(1);
    });

    it("locks an address after 10 failures in 15 minutes, even for the right password", async () => {
      await withPassword("locked@example.com", "a long passphrase");
      for (let i = 0; i < 10; i += 1) {
        const failed = await post(h, "/api/v1/auth/login", {
          email: "locked@example.com",
          password: `nope ${i}`,
        });
        expectProblem(failed, "authentication_error");
      }
      const locked = await post(h, "/api/v1/auth/login", {
        email: "locked@example.com",
        password: "a long passphrase",
      });
      expectProblem(locked, "rate_limited");
      const retryAfter = Number(locked.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      h.clock.advance(retryAfter * 1000);
      const after = await post(h, "/api/v1/auth/login", {
        email: "locked@example.com",
        password: "a long passphrase",
      });
      expect(after.statusCode).toBe(200);
    });

    it("validates the login body", async () => {
      const body = expectProblem(
        await post(h, "/api/v1/auth/login", { email: "x@example.com" }),
        "validation_error",
      );
      expect(body.errors).toEqual([{ pointer: "/password", message: "is required" }]);
    });
  });

  describe("refresh", () => {
    it("rotates: a new pair in the same session, the old refresh token spent", async () => {
      const user = await signInBySmtp(h, "rotate@example.com");
      const refreshed = await post(h, "/api/v1/auth/refresh", { refresh_token: user.pair.refresh_token });
      expect(refreshed.statusCode).toBe(200);
      expect(refreshed.headers["cache-control"]).toBe("no-store");
      const next = refreshed.json<TokenPair>();
      expect(next.refresh_token).not.toBe(user.pair.refresh_token);
      expect(claimsOf(next.access_token).sid).toBe(claimsOf(user.pair.access_token).sid);
      expect((await me(signed(next).headers)).statusCode).toBe(200);
    });

    it("revokes the whole family when a rotated token is presented again", async () => {
      const user = await signInBySmtp(h, "reuse@example.com");
      const next = (
        await post(h, "/api/v1/auth/refresh", { refresh_token: user.pair.refresh_token })
      ).json<TokenPair>();
      const reused = await post(h, "/api/v1/auth/refresh", { refresh_token: user.pair.refresh_token });
      expect(expectProblem(reused, "token_invalid").detail).toMatch(/signed out/);
      // The family is dead: the newest refresh token and its access token fail too.
      expectProblem(
        await post(h, "/api/v1/auth/refresh", { refresh_token: next.refresh_token }),
        "token_invalid",
      );
      expectProblem(await me(signed(next).headers), "authentication_error");
    });

    it("lets at most one of two racing refreshes with one token succeed, and the reuse ends the family", async () => {
      const user = await signInBySmtp(h, "race@example.com");
      const answers = await Promise.all([
        post(h, "/api/v1/auth/refresh", { refresh_token: user.pair.refresh_token }),
        post(h, "/api/v1/auth/refresh", { refresh_token: user.pair.refresh_token }),
      ]);
      const statuses = answers.map((a) => a.statusCode).sort();
      // Either one wins and the other is the reuse, or the reuse is seen first by both.
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(1);
      expect(statuses).toContain(401);
      for (const answer of answers.filter((a) => a.statusCode === 401))
        expectProblem(answer, "token_invalid");
      // Presenting the spent token revoked the family, so the winner's tokens are dead too.
      const winner = answers.find((a) => a.statusCode === 200)?.json<TokenPair>();
      if (winner !== undefined) {
        expectProblem(
          await post(h, "/api/v1/auth/refresh", { refresh_token: winner.refresh_token }),
          "token_invalid",
        );
        expectProblem(await me(signed(winner).headers), "authentication_error");
      }
    });

    it("keeps the absolute expiry: a 24-hour session ends after 24 hours despite refreshes", async () => {
      const user = await signInBySmtp(h, "short@example.com", { body: { remember_me: false } });
      h.clock.advance(23 * 60 * MINUTE);
      const refreshed = await post(h, "/api/v1/auth/refresh", { refresh_token: user.pair.refresh_token });
      expect(refreshed.statusCode).toBe(200);
      h.clock.advance(61 * MINUTE);
      const expired = await post(h, "/api/v1/auth/refresh", {
        refresh_token: refreshed.json<TokenPair>().refresh_token,
      });
      expectProblem(expired, "token_expired");
    });

    it("keeps a remembered session for 30 days", async () => {
      const user = await signInBySmtp(h, "long@example.com");
      h.clock.advance(29 * 24 * 60 * MINUTE);
      const refreshed = await post(h, "/api/v1/auth/refresh", { refresh_token: user.pair.refresh_token });
      expect(refreshed.statusCode).toBe(200);
      h.clock.advance(24 * 60 * MINUTE);
      expectProblem(
        await post(h, "/api/v1/auth/refresh", { refresh_token: refreshed.json<TokenPair>().refresh_token }),
        "token_expired",
      );
    });

    it("rejects an unknown refresh token with token_invalid", async () => {
      expectProblem(
        await post(h, "/api/v1/auth/refresh", { refresh_token: "y".repeat(43) }),
        "token_invalid",
      );
    });
  });

  describe("validate and logout", () => {
    it("tells valid from spent refresh and access tokens, never with 401", async () => {
      const user = await signInBySmtp(h, "validate@example.com");
      const valid = (payload: Record<string, unknown>) => post(h, "/api/v1/auth/validate", payload);
      expect((await valid({ refresh_token: user.pair.refresh_token })).json()).toEqual({ valid: true });
      expect((await valid({ access_token: user.pair.access_token })).json()).toEqual({ valid: true });
      await post(h, "/api/v1/auth/refresh", { refresh_token: user.pair.refresh_token });
      const spent = await valid({ refresh_token: user.pair.refresh_token });
      expect({ status: spent.statusCode, body: spent.json() }).toEqual({
        status: 200,
        body: { valid: false },
      });
      expect((await valid({ access_token: "not.a.jwt" })).json()).toEqual({ valid: false });
      expect((await valid({ refresh_token: "unknown" })).json()).toEqual({ valid: false });
      h.clock.advance(15 * MINUTE + 1000);
      expect((await valid({ access_token: user.pair.access_token })).json()).toEqual({ valid: false });
    });

    it("wants exactly one token", async () => {
      expectProblem(await post(h, "/api/v1/auth/validate", {}), "validation_error");
      expectProblem(
        await post(h, "/api/v1/auth/validate", { refresh_token: "a", access_token: "b" }),
        "validation_error",
      );
    });

    it("logs out: the session's refresh and access tokens stop at once", async () => {
      const user = await signInBySmtp(h, "logout@example.com");
      const other = await signInBySmtp(h, "logout@example.com");
      const out = await post(h, "/api/v1/auth/logout", { refresh_token: user.pair.refresh_token });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ message: expect.any(String) });
      expectProblem(await me(user.headers), "authentication_error");
      expectProblem(
        await post(h, "/api/v1/auth/refresh", { refresh_token: user.pair.refresh_token }),
        "token_invalid",
      );
      // The user's other session is untouched.
      expect((await me(other.headers)).statusCode).toBe(200);
      // An unknown token answers the same.
      const unknown = await post(h, "/api/v1/auth/logout", { refresh_token: "z".repeat(43) });
      expect({ status: unknown.statusCode, body: unknown.body }).toEqual({ status: 200, body: out.body });
    });
  });

  describe("housekeeping", () => {
    it("forgets expired links and ended sessions a day after they end", async () => {
      const db = h.ctx.deps.metadata.db;
      const gone = await signInBySmtp(h, "sweep@example.com");
      await post(h, "/api/v1/auth/logout", { refresh_token: gone.pair.refresh_token });
      await requestLinkToken(h, "sweep-unused@example.com");
      const sessionId = String(claimsOf(gone.pair.access_token).sid);
      const counts = async () => ({
        sessions: (await db.selectFrom("sessions").select("id").where("id", "=", sessionId).execute()).length,
        links: (
          await db
            .selectFrom("magic_link_tokens")
            .select("id")
            .where("email", "=", "sweep-unused@example.com")
            .execute()
        ).length,
      });
      expect(await counts()).toEqual({ sessions: 1, links: 1 });
      h.clock.advance(2 * 24 * 60 * MINUTE);
      await post(h, "/api/v1/auth/magic-link", { email: "sweep-trigger@example.com" });
      expect(await counts()).toEqual({ sessions: 0, links: 0 });
    });
  });

  describe("access tokens on bearer routes", () => {
    it("rejects missing, malformed, foreign-key, wrong-type and expired tokens with 401", async () => {
      const user = await signInBySmtp(h, "bearer@example.com");
      const claims = claimsOf(user.pair.access_token);
      const forge = (secret: string, type: string) =>
        new SignJWT({ email: claims.email, sid: claims.sid, type })
          .setProtectedHeader({ alg: "HS256" })
          .setSubject(String(claims.sub))
          .setIssuedAt(Number(claims.iat))
          .setExpirationTime(Number(claims.exp))
          .sign(new TextEncoder().encode(secret));

      const missing = await h.ctx.app.inject({ url: "/api/v1/users/me" });
      expect(expectProblem(missing, "authentication_error")).toBeTruthy();
      expect(missing.headers["www-authenticate"]).toMatch(/^Bearer/);
      const cases = [
        "Bearer not-a-jwt",
        `Bearer ${await forge("another secret that is long enough to be a key!!", "access")}`,
        `Bearer ${await forge(h.ctx.deps.jwtSecret, "refresh")}`,
      ];
      for (const authorization of cases) {
        const rejected = await h.ctx.app.inject({ url: "/api/v1/users/me", headers: { authorization } });
        expectProblem(rejected, "authentication_error");
        expect(rejected.headers["www-authenticate"]).toContain('error="invalid_token"');
      }
      // A token forged with the right key and type works: the checks above are the real ones.
      expect(
        (await me({ authorization: `Bearer ${await forge(h.ctx.deps.jwtSecret, "access")}` })).statusCode,
      ).toBe(200);
      h.clock.advance(15 * MINUTE + 1000);
      expectProblem(await me(user.headers), "authentication_error");
    });

    it("is documented in the OpenAPI document with examples", async () => {
      const document = (await h.ctx.app.inject({ url: "/api/v1/openapi.json" })).json();
      const operation = document.paths["/api/v1/auth/verify"].post;
      expect(operation.operationId).toBe("verifyMagicLink");
      const schema = operation.requestBody.content["application/json"].schema;
      expect(schema.properties.token.examples).toBeDefined();
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "401", "422"]));
    });
  });
});
