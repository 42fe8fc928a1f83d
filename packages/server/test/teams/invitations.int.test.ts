// The whole invitation flow over HTTP with a real SMTP conversation: an owner invites an address,
// the message arrives at a real SMTP server, the invitee signs up by magic link and accepts with
// the token from the link. Single use, 7 days, SHA-256 stored, replaced on re-invite, refused for
// members and other addresses, declined, revoked, and rate-limited.
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Client, clientFor } from "../support/client.js";
import { decodeQuotedPrintable, invitationTokenOf } from "../support/mail.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import {
  type IdentityHarness,
  PUBLIC_URL,
  type Signed,
  signInBySmtp,
  startIdentityHarness,
} from "../identity/helpers.js";

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(metadataBackends())("invitations on $name", (backend: MetadataBackend) => {
  let h: IdentityHarness;
  let owner: Signed;
  let api: Client;

  const clientOf = (user: Signed) => clientFor(h.ctx.app, user.headers);
  const invite = (email: string, role = "member", as: Client = api) =>
    as.post("/api/v1/projects/shop/invitations", { email, role });
  /** Invites and returns the token of the link that arrived over SMTP. */
  const inviteAndReadToken = async (email: string, role = "member") => {
    const before = h.smtp.mailsTo(email).length;
    const response = await invite(email, role);
    expect(response.statusCode, response.body).toBe(201);
    const mail = await h.smtp.waitForMail(email, { after: before });
    return { invitation: response.json<{ id: string }>(), token: invitationTokenOf(mail.raw), mail };
  };

  beforeEach(async () => {
    h = await startIdentityHarness(backend);
    owner = await signInBySmtp(h, "owner@shop.test");
    api = clientOf(owner);
    expect((await api.post("/api/v1/projects", { name: "Shop", slug: "shop" })).statusCode).toBe(201);
  });
  afterEach(async () => {
    await h.close();
  });

  it("takes an invitee from the e-mail to the project, once", async () => {
    const response = await invite("Grace@Example.COM", "member");
    expect(response.statusCode).toBe(201);
    const invitation = response.json<Record<string, string>>();
    expect(invitation).toEqual({
      id: expect.any(String),
      email: "grace@example.com",
      role: "member",
      invited_by: { user_id: owner.userId, email: "owner@shop.test", name: "owner" },
      created_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(Date.parse(invitation.expires_at as string) - Date.parse(invitation.created_at as string)).toBe(
      7 * DAY_MS,
    );

    const mail = await h.smtp.waitForMail("grace@example.com");
    const text = decodeQuotedPrintable(mail.raw);
    expect(text).toContain("Subject: owner invited you to Shop on Sightline");
    expect(text).toContain(`${PUBLIC_URL}/invitations/accept?token=`);
    expect(text).toContain('join the project "Shop" as member');
    const token = invitationTokenOf(mail.raw);
    // Only the token's SHA-256 is kept.
    const row = await h.ctx.deps.metadata.db
      .selectFrom("project_invitations")
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);

    // Grace has no account: the magic link makes one; then the invitation is hers to answer.
    const grace = clientOf(await signInBySmtp(h, "grace@example.com"));
    expect((await grace.get("/api/v1/users/invitations")).json()).toEqual({
      invitations: [
        {
          id: invitation.id,
          project: { id: expect.any(String), name: "Shop", slug: "shop" },
          role: "member",
          invited_by: { user_id: owner.userId, email: "owner@shop.test", name: "owner" },
          created_at: invitation.created_at,
          expires_at: invitation.expires_at,
        },
      ],
    });
    const accepted = await grace.post("/api/v1/invitations/accept", { token });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({
      message: "You joined Shop as member.",
      project: { id: expect.any(String), name: "Shop", slug: "shop" },
      role: "member",
    });
    expect((await grace.get("/api/v1/projects")).json()).toMatchObject([{ slug: "shop", role: "member" }]);
    expect((await grace.post("/api/v1/projects/shop/apps", { name: "Web" })).statusCode).toBe(201);
    expect((await api.get("/api/v1/projects/shop/members")).json()).toMatchObject({
      members: [
        { email: "owner@shop.test", role: "owner" },
        { email: "grace@example.com", role: "member" },
      ],
    });
    // Single use.
    expectProblem(await grace.post("/api/v1/invitations/accept", { token }), "not_found");
    expect((await grace.get("/api/v1/users/invitations")).json()).toEqual({ invitations: [] });
    expect((await api.get("/api/v1/projects/shop/invitations")).json()).toEqual({ invitations: [] });
  });

  it("lets only the invited address answer", async () => {
    const { invitation, token } = await inviteAndReadToken("ada@example.com");
    const mallory = clientOf(await signInBySmtp(h, "mallory@example.com"));
    const wrong = expectProblem(await mallory.post("/api/v1/invitations/accept", { token }), "forbidden");
    expect(wrong.detail).toContain("sent to another e-mail address");
    expectProblem(await mallory.post("/api/v1/invitations/accept", { id: invitation.id }), "not_found");
    expectProblem(await mallory.post("/api/v1/invitations/decline", { token }), "forbidden");
    expect((await mallory.get("/api/v1/users/invitations")).json()).toEqual({ invitations: [] });
    expectProblem(await mallory.get("/api/v1/projects/shop"), "not_found");
    const ada = clientOf(await signInBySmtp(h, "ADA@example.com"));
    expect((await ada.post("/api/v1/invitations/accept", { id: invitation.id })).statusCode).toBe(200);
    for (const body of [{}, { token, id: invitation.id }]) {
      expectProblem(await ada.post("/api/v1/invitations/accept", body), "validation_error");
    }
  });

  it("replaces a pending invitation when the address is invited again, and refuses members", async () => {
    const first = await inviteAndReadToken("lin@example.com", "viewer");
    const second = await inviteAndReadToken("lin@example.com", "admin");
    const pending = (await api.get("/api/v1/projects/shop/invitations")).json<{ invitations: unknown[] }>();
    expect(pending.invitations).toEqual([
      expect.objectContaining({ id: second.invitation.id, role: "admin" }),
    ]);
    const lin = clientOf(await signInBySmtp(h, "lin@example.com"));
    expectProblem(await lin.post("/api/v1/invitations/accept", { token: first.token }), "not_found");
    expect((await lin.post("/api/v1/invitations/accept", { token: second.token })).json()).toMatchObject({
      role: "admin",
    });
    expect(expectProblem(await invite("LIN@example.com"), "conflict").detail).toContain("already a member");
    expectProblem(await invite("owner@shop.test"), "conflict");
  });

  it("expires after 7 days", async () => {
    const { token } = await inviteAndReadToken("late@example.com");
    const late = clientOf(await signInBySmtp(h, "late@example.com"));
    h.clock.advance(7 * DAY_MS + 1);
    // Signing in again: the access token of a week ago has expired too.
    const again = clientOf(await signInBySmtp(h, "late@example.com"));
    expect((await again.get("/api/v1/users/invitations")).json()).toEqual({ invitations: [] });
    expect(
      expectProblem(await again.post("/api/v1/invitations/accept", { token }), "not_found").detail,
    ).toContain("expired");
    expectProblem(await late.get("/api/v1/users/invitations"), "authentication_error");
    expect((await api.get("/api/v1/projects/shop/invitations")).statusCode).toBe(401);
  });

  it("can be declined by the invitee and revoked by the project", async () => {
    const declined = await inviteAndReadToken("no@example.com");
    const no = clientOf(await signInBySmtp(h, "no@example.com"));
    expect((await no.post("/api/v1/invitations/decline", { id: declined.invitation.id })).json()).toEqual({
      message: "You declined the invitation to Shop.",
    });
    expectProblem(await no.post("/api/v1/invitations/accept", { token: declined.token }), "not_found");
    expectProblem(await no.get("/api/v1/projects/shop"), "not_found");

    const revoked = await inviteAndReadToken("maybe@example.com");
    expect((await api.delete(`/api/v1/projects/shop/invitations/${revoked.invitation.id}`)).json()).toEqual({
      message: "Invitation revoked",
    });
    expectProblem(
      await api.delete(`/api/v1/projects/shop/invitations/${revoked.invitation.id}`),
      "not_found",
    );
    const maybe = clientOf(await signInBySmtp(h, "maybe@example.com"));
    expectProblem(await maybe.post("/api/v1/invitations/accept", { token: revoked.token }), "not_found");
  });

  it("lets only owners invite owners", async () => {
    const { token } = await inviteAndReadToken("admin@example.com", "admin");
    const admin = clientOf(await signInBySmtp(h, "admin@example.com"));
    await admin.post("/api/v1/invitations/accept", { token });
    const refused = expectProblem(await invite("boss@example.com", "owner", admin), "forbidden");
    expect(refused.permission).toBe("owners:manage");
    expect((await invite("helper@example.com", "viewer", admin)).statusCode).toBe(201);
    const boss = await inviteAndReadToken("boss@example.com", "owner");
    const bossClient = clientOf(await signInBySmtp(h, "boss@example.com"));
    expect((await bossClient.post("/api/v1/invitations/accept", { token: boss.token })).json()).toMatchObject(
      {
        role: "owner",
      },
    );
    expect((await bossClient.delete("/api/v1/projects/shop")).statusCode).toBe(200);
  });

  it("accepts a token once when two requests race with it", async () => {
    const { token } = await inviteAndReadToken("racer@example.com");
    const racer = clientOf(await signInBySmtp(h, "racer@example.com"));
    const answers = await Promise.all([
      racer.post("/api/v1/invitations/accept", { token }),
      racer.post("/api/v1/invitations/accept", { token }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404]);
    const members = (await api.get("/api/v1/projects/shop/members")).json<{ members: unknown[] }>();
    expect(members.members).toHaveLength(2);
  });

  it("limits invitations per address, with Retry-After", async () => {
    for (let i = 0; i < 10; i += 1) expect((await invite("target@example.com")).statusCode).toBe(201);
    const limited = await invite("target@example.com");
    expectProblem(limited, "rate_limited");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    await h.ctx.deps.mail.flush();
    expect(h.smtp.mailsTo("target@example.com")).toHaveLength(10);
    // Only the newest of the ten is pending.
    expect(
      (await api.get("/api/v1/projects/shop/invitations")).json<{ invitations: unknown[] }>().invitations,
    ).toHaveLength(1);
    h.clock.advance(60 * 60 * 1000);
    const fresh = clientOf(await signInBySmtp(h, "owner@shop.test"));
    expect((await invite("target@example.com", "member", fresh)).statusCode).toBe(201);
  });
});
