// The users routes over HTTP, signed in through a real SMTP server: profile and context,
// sessions (list, revoke, logout-others, logout-all) with immediate revocation of access
// tokens, password set and change, and account deletion — on every metadata backend.
import type { PasswordChanged, Session, TokenPair, UserProfile } from "@sightline/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTimeZoneCatalogue } from "../../src/lib/time-zones.js";
import { createUsersService } from "../../src/modules/users/users.service.js";
import { loadEngineTimeZones } from "../../src/stores/events/index.js";
import { createTestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import {
  claimsOf,
  type IdentityHarness,
  post,
  signInBySmtp,
  type Signed,
  signed,
  startIdentityHarness,
} from "./helpers.js";

const MINUTE = 60_000;

describe.each(metadataBackends())("users routes on $name", (backend) => {
  let h: IdentityHarness;
  beforeAll(async () => {
    h = await startIdentityHarness(backend);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => h.clock.advance(MINUTE + 1));

  const get = (url: string, headers?: { authorization: string }) =>
    h.ctx.app.inject({ method: "GET", url, ...(headers === undefined ? {} : { headers }) });
  const patchMe = (headers: { authorization: string }, payload: Record<string, unknown>) =>
    h.ctx.app.inject({ method: "PATCH", url: "/api/v1/users/me", headers, payload });
  const del = (url: string, headers: { authorization: string }) =>
    h.ctx.app.inject({ method: "DELETE", url, headers });
  const sessionsOf = async (user: Signed) => {
    const response = await get("/api/v1/users/sessions", user.headers);
    expect(response.statusCode).toBe(200);
    return response.json<Session[]>();
  };
  const sidOf = (user: Signed) => String(claimsOf(user.pair.access_token).sid);

  describe("profile and context", () => {
    it("updates names and the time zone and derives the display name", async () => {
      const user = await signInBySmtp(h, "ada@example.com");
      const updated = await patchMe(user.headers, {
        first_name: "  Ada ",
        last_name: "Lovelace",
        timezone: "europe/london",
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({
        id: user.userId,
        first_name: "Ada",
        last_name: "Lovelace",
        display_name: "Ada Lovelace",
        timezone: "Europe/London",
      });
      const partial = await patchMe(user.headers, { last_name: "" });
      expect(partial.json()).toMatchObject({ display_name: "Ada", timezone: "Europe/London" });
      const profile = (await get("/api/v1/users/me", user.headers)).json<UserProfile>();
      expect(Object.keys(profile).sort()).toEqual(
        [
          "id",
          "email",
          "first_name",
          "last_name",
          "display_name",
          "picture",
          "email_verified",
          "has_password",
          "timezone",
          "created_at",
          "last_login_at",
        ].sort(),
      );
    });

    it("refuses a time zone that is not an IANA zone, long names and unknown fields", async () => {
      const user = await signInBySmtp(h, "tz@example.com");
      for (const timezone of ["Mars/Olympus", "+02:00", "Europe/London; DROP"]) {
        const body = expectProblem(await patchMe(user.headers, { timezone }), "validation_error");
        expect(body.errors).toEqual([{ pointer: "/timezone", message: expect.any(String) }]);
      }
      const many = expectProblem(
        await patchMe(user.headers, { first_name: "x".repeat(151), role: "admin" }),
        "validation_error",
      );
      expect(many.errors?.map((e) => e.pointer).sort()).toEqual(["/first_name", "/role"]);
    });

    it("answers the user context of spec 2.6", async () => {
      const user = await signInBySmtp(h, "ctx@example.com");
      const context = await get("/api/v1/users/context", user.headers);
      expect(context.json()).toEqual({
        id: user.userId,
        email: "ctx@example.com",
        display_name: "ctx",
        picture: "",
        is_authenticated: true,
        permissions: [],
        role: "member",
        projects: [],
      });
    });

    it("requires a bearer token on every /users route but the public picture", async () => {
      const routes: Array<[string, string]> = [
        ["GET", "/api/v1/users/me"],
        ["PATCH", "/api/v1/users/me"],
        ["DELETE", "/api/v1/users/me"],
        ["GET", "/api/v1/users/context"],
        ["POST", "/api/v1/users/me/picture"],
        ["DELETE", "/api/v1/users/me/picture"],
        ["POST", "/api/v1/users/me/password"],
        ["GET", "/api/v1/users/sessions"],
        ["DELETE", "/api/v1/users/sessions/6a1f0c52-7f43-4d4b-9a57-1f1d1f0b8f0e"],
        ["POST", "/api/v1/users/logout-all"],
        ["POST", "/api/v1/users/logout-others"],
      ];
      for (const [method, url] of routes) {
        const response = await h.ctx.app.inject({ method: method as "GET", url });
        expect(response.statusCode, `${method} ${url}`).toBe(401);
        expectProblem(response, "authentication_error");
      }
    });
  });

  describe("sessions", () => {
    it("lists live sessions newest use first, marking the caller's, with device and address", async () => {
      const laptop = await signInBySmtp(h, "devices@example.com", {
        client: { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (Macintosh) Firefox/126.0" },
      });
      h.clock.advance(1000);
      const phone = await signInBySmtp(h, "devices@example.com", {
        client: { ip: "203.0.113.8" },
        body: { device_info: "Sightline for iOS" },
      });
      const fromPhone = await sessionsOf(phone);
      expect(fromPhone).toEqual([
        {
          id: sidOf(phone),
          device_info: "Sightline for iOS",
          ip_address: "203.0.113.8",
          location: "",
          is_current: true,
          created_at: expect.any(String),
          last_used_at: expect.any(String),
        },
        {
          id: sidOf(laptop),
          device_info: "Mozilla/5.0 (Macintosh) Firefox/126.0",
          ip_address: "203.0.113.7",
          location: "",
          is_current: false,
          created_at: expect.any(String),
          last_used_at: expect.any(String),
        },
      ]);
      // A refresh counts as use: the laptop moves to the top.
      h.clock.advance(1000);
      const refreshed = await post(
        h,
        "/api/v1/auth/refresh",
        { refresh_token: laptop.pair.refresh_token },
        { ip: "203.0.113.9" },
      );
      expect(refreshed.statusCode).toBe(200);
      const after = await sessionsOf(phone);
      expect(after.map((s) => s.id)).toEqual([sidOf(laptop), sidOf(phone)]);
      expect(after[0]?.ip_address).toBe("203.0.113.9");
    });

    it("moves last_used_at on bearer use at most once a minute", async () => {
      const user = await signInBySmtp(h, "touch@example.com");
      const lastUsed = async () => (await sessionsOf(user)).find((s) => s.is_current)?.last_used_at;
      const initial = await lastUsed();
      h.clock.advance(30_000);
      expect(await lastUsed()).toBe(initial);
      h.clock.advance(31_000);
      await get("/api/v1/users/me", user.headers);
      const moved = await lastUsed();
      expect(Date.parse(moved ?? "")).toBe(h.clock.now().getTime());
      h.clock.advance(10_000);
      await get("/api/v1/users/me", user.headers);
      expect(await lastUsed()).toBe(moved);
    });

    it("revokes one session: its tokens stop at once, the caller's go on", async () => {
      const keep = await signInBySmtp(h, "revoke@example.com");
      const drop = await signInBySmtp(h, "revoke@example.com");
      const revoked = await del(`/api/v1/users/sessions/${sidOf(drop)}`, keep.headers);
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json()).toEqual({ message: "Session revoked" });
      expectProblem(await get("/api/v1/users/me", drop.headers), "authentication_error");
      expectProblem(
        await post(h, "/api/v1/auth/refresh", { refresh_token: drop.pair.refresh_token }),
        "token_invalid",
      );
      expect((await get("/api/v1/users/me", keep.headers)).statusCode).toBe(200);
      // Already revoked now: 404.
      expectProblem(await del(`/api/v1/users/sessions/${sidOf(drop)}`, keep.headers), "not_found");
    });

    it("answers 404 for another user's or an unknown session and 422 for a malformed id", async () => {
      const mine = await signInBySmtp(h, "mine@example.com");
      const theirs = await signInBySmtp(h, "theirs@example.com");
      expectProblem(await del(`/api/v1/users/sessions/${sidOf(theirs)}`, mine.headers), "not_found");
      expect((await get("/api/v1/users/me", theirs.headers)).statusCode).toBe(200);
      expectProblem(
        await del("/api/v1/users/sessions/0b6f7c1e-3d2a-4f8e-9b1c-5a7d2e4f6a81", mine.headers),
        "not_found",
      );
      const malformed = expectProblem(
        await del("/api/v1/users/sessions/not-a-uuid", mine.headers),
        "validation_error",
      );
      expect(malformed.errors).toEqual([{ pointer: "#/path/session_id", message: expect.any(String) }]);
    });

    it("logout-others keeps only the caller's session", async () => {
      const a = await signInBySmtp(h, "others@example.com");
      const b = await signInBySmtp(h, "others@example.com");
      const c = await signInBySmtp(h, "others@example.com");
      const bystander = await signInBySmtp(h, "bystander@example.com");
      const response = await post(h, "/api/v1/users/logout-others", {}, { headers: b.headers });
      expect(response.json()).toEqual({ message: "Signed out 2 other sessions" });
      expect((await sessionsOf(b)).map((s) => [s.id, s.is_current])).toEqual([[sidOf(b), true]]);
      for (const gone of [a, c]) {
        expectProblem(await get("/api/v1/users/me", gone.headers), "authentication_error");
        expectProblem(
          await post(h, "/api/v1/auth/refresh", { refresh_token: gone.pair.refresh_token }),
          "token_invalid",
        );
      }
      expect((await get("/api/v1/users/me", b.headers)).statusCode).toBe(200);
      expect((await get("/api/v1/users/me", bystander.headers)).statusCode).toBe(200);
    });

    it("logout-all signs out every session, the caller's included", async () => {
      const a = await signInBySmtp(h, "all@example.com");
      const b = await signInBySmtp(h, "all@example.com");
      const response = await post(h, "/api/v1/users/logout-all", {}, { headers: a.headers });
      expect(response.json()).toEqual({ message: "Signed out 2 sessions" });
      for (const gone of [a, b]) {
        expectProblem(await get("/api/v1/users/me", gone.headers), "authentication_error");
        expectProblem(
          await post(h, "/api/v1/auth/refresh", { refresh_token: gone.pair.refresh_token }),
          "token_invalid",
        );
      }
    });
  });

  describe("password", () => {
    const setPassword = (user: Signed, payload: Record<string, unknown>) =>
      post(h, "/api/v1/users/me/password", payload, { headers: user.headers });

    it("sets a first password: other sessions end, the caller gets a fresh pair", async () => {
      const other = await signInBySmtp(h, "first-pw@example.com");
      const caller = await signInBySmtp(h, "first-pw@example.com");
      const response = await setPassword(caller, {
        new_password: "correct horse battery",
        confirm_password: "correct horse battery",
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("no-store");
      const result = response.json<PasswordChanged>();
      expect(result).toEqual({
        message: expect.any(String),
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        token_type: "Bearer",
        expires_in: 900,
      });
      const fresh = signed(result);
      expect(claimsOf(result.access_token).sid).toBe(sidOf(caller));
      expect((await get("/api/v1/users/me", fresh.headers)).json()).toMatchObject({ has_password: true });
      expectProblem(await get("/api/v1/users/me", other.headers), "authentication_error");
      // The caller's earlier refresh token is retired; the new one works.
      h.clock.advance(11_000);
      expect(
        (await post(h, "/api/v1/auth/refresh", { refresh_token: result.refresh_token })).statusCode,
      ).toBe(200);
      const login = await post(h, "/api/v1/auth/login", {
        email: "first-pw@example.com",
        password: "correct horse battery",
      });
      expect(login.statusCode).toBe(200);
    });

    it("changes a password only with the right current password", async () => {
      const user = await signInBySmtp(h, "change-pw@example.com");
      const first = await setPassword(user, {
        new_password: "first password 1",
        confirm_password: "first password 1",
      });
      const current = signed(first.json<TokenPair>());
      const missing = expectProblem(
        await setPassword(current, {
          new_password: "second password 2",
          confirm_password: "second password 2",
        }),
        "validation_error",
      );
      expect(missing.errors).toEqual([{ pointer: "/current_password", message: expect.any(String) }]);
      const wrong = expectProblem(
        await setPassword(current, {
          new_password: "second password 2",
          confirm_password: "second password 2",
          current_password: "not it at all",
        }),
        "validation_error",
      );
      expect(wrong.errors).toEqual([{ pointer: "/current_password", message: expect.any(String) }]);
      const ok = await setPassword(current, {
        new_password: "second password 2",
        confirm_password: "second password 2",
        current_password: "first password 1",
      });
      expect(ok.statusCode).toBe(200);
      expectProblem(
        await post(h, "/api/v1/auth/login", { email: "change-pw@example.com", password: "first password 1" }),
        "authentication_error",
      );
      expect(
        (
          await post(h, "/api/v1/auth/login", {
            email: "change-pw@example.com",
            password: "second password 2",
          })
        ).statusCode,
      ).toBe(200);
    });

    it("enforces the password policy, reporting every problem", async () => {
      const user = await signInBySmtp(h, "policy.person@example.com");
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ new_password: "short", confirm_password: "short" }, ["/new_password"]],
        [{ new_password: "12345678901234", confirm_password: "12345678901234" }, ["/new_password"]],
        [
          { new_password: "policy.person@example.com", confirm_password: "policy.person@example.com" },
          ["/new_password"],
        ],
        [{ new_password: "long enough pass", confirm_password: "long enough pasS" }, ["/confirm_password"]],
        [
          { new_password: "123", confirm_password: "1234" },
          ["/confirm_password", "/new_password", "/new_password"],
        ],
      ];
      for (const [payload, pointers] of cases) {
        const body = expectProblem(await setPassword(user, payload), "validation_error");
        expect(body.errors?.map((e) => e.pointer).sort(), JSON.stringify(payload)).toEqual(pointers);
      }
      expect((await get("/api/v1/users/me", user.headers)).json()).toMatchObject({ has_password: false });
    });
  });

  describe("account deletion", () => {
    it("ends every session, blocks sign-in and frees the address for a fresh sign-up", async () => {
      const a = await signInBySmtp(h, "leaving@example.com");
      const b = await signInBySmtp(h, "leaving@example.com");
      await patchMe(a.headers, { first_name: "Leaving" });
      const pw = await post(
        h,
        "/api/v1/users/me/password",
        { new_password: "a long passphrase", confirm_password: "a long passphrase" },
        { headers: a.headers },
      );
      const caller = signed(pw.json<TokenPair>());

      const deleted = await del("/api/v1/users/me", caller.headers);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ message: "Account deleted" });

      for (const gone of [caller, b]) {
        expectProblem(await get("/api/v1/users/me", gone.headers), "authentication_error");
        expectProblem(
          await post(h, "/api/v1/auth/refresh", { refresh_token: gone.pair.refresh_token }),
          "token_invalid",
        );
      }
      expectProblem(
        await post(h, "/api/v1/auth/login", { email: "leaving@example.com", password: "a long passphrase" }),
        "authentication_error",
      );
      const again = await signInBySmtp(h, "leaving@example.com");
      expect(again.userId).not.toBe(a.userId);
      expect((await get("/api/v1/users/me", again.headers)).json()).toMatchObject({
        email: "leaving@example.com",
        first_name: "",
        has_password: false,
      });
      // Nothing personal stays on the old row.
      const row = await h.ctx.deps.metadata.db
        .selectFrom("users")
        .selectAll()
        .where("id", "=", a.userId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        email: "",
        first_name: "",
        password_hash: null,
        deleted_at: expect.any(String),
      });
    });

    it("runs onAccountDeleted hooks in the deletion's transaction, rolling all back on failure", async () => {
      const user = await signInBySmtp(h, "hooked@example.com");
      const db = h.ctx.deps.metadata.db;
      const seen: string[] = [];
      const afterCommit: Array<string | null> = [];
      const service = (fail: boolean) =>
        createUsersService({
          db,
          clock: h.clock,
          apiBaseUrl: "https://sightline.test/api/v1",
          logger: h.ctx.deps.logger,
          timeZones: createTimeZoneCatalogue(() => loadEngineTimeZones(h.ctx.deps.events)),
          onAccountDeleted: [
            async (userId, trx) => {
              // The hook sees the user still live, inside the transaction it writes with.
              const live = await trx
                .selectFrom("users")
                .select("email")
                .where("id", "=", userId)
                .executeTakeFirst();
              seen.push(live?.email ?? "");
              await trx
                .insertInto("rate_limit_counters")
                .values({ bucket: `hook:${userId}`, window_start: "x", hits: 1, expires_at: "9999" })
                .execute();
            },
            async () => {
              if (fail) throw new Error("a later hook failed");
              // Runs only after the commit: the user is gone by then.
              return () => {
                void db
                  .selectFrom("users")
                  .select("deleted_at")
                  .where("id", "=", user.userId)
                  .executeTakeFirst()
                  .then((row) => afterCommit.push(row?.deleted_at ?? null));
              };
            },
          ],
        });
      const marker = () =>
        db
          .selectFrom("rate_limit_counters")
          .select("hits")
          .where("bucket", "=", `hook:${user.userId}`)
          .execute();

      await expect(service(true).deleteAccount(user.userId)).rejects.toThrow("a later hook failed");
      expect(await marker()).toEqual([]);
      expect((await get("/api/v1/users/me", user.headers)).statusCode).toBe(200);

      expect(afterCommit).toEqual([]);
      await service(false).deleteAccount(user.userId);
      await expect.poll(() => afterCommit).toEqual([expect.any(String)]);
      expect(await marker()).toHaveLength(1);
      expect(seen).toEqual(["hooked@example.com", "hooked@example.com"]);
      expectProblem(await get("/api/v1/users/me", user.headers), "authentication_error");
    });
  });
});

describe("client address behind a proxy", () => {
  it("takes X-Forwarded-For only when TRUST_PROXY is set", async () => {
    for (const [trust, expected] of [
      ["false", "127.0.0.1"],
      ["true", "203.0.113.50"],
    ] as const) {
      const ctx = await createTestContext({ env: { TRUST_PROXY: trust } });
      try {
        const user = await signIn(ctx, "proxied@example.com");
        const sessions = await ctx.app.inject({
          url: "/api/v1/users/sessions",
          headers: user.headers,
        });
        expect(sessions.json<Session[]>()[0]?.ip_address, `TRUST_PROXY=${trust}`).toBe("127.0.0.1");
        const refreshed = await ctx.app.inject({
          method: "POST",
          url: "/api/v1/auth/refresh",
          payload: { refresh_token: user.refreshToken },
          headers: { "x-forwarded-for": "203.0.113.50" },
        });
        const pair = refreshed.json<TokenPair>();
        const after = await ctx.app.inject({
          url: "/api/v1/users/sessions",
          headers: { authorization: `Bearer ${pair.access_token}` },
        });
        expect(after.json<Session[]>()[0]?.ip_address, `TRUST_PROXY=${trust}`).toBe(expected);
      } finally {
        await ctx.close();
      }
    }
  });
});
