// Teams for route suites, built through the production path: the owner invites over HTTP, the
// development mailer writes the invitation to DATA_DIR/outbox, and the invitee accepts with the
// token read from that message's link.
import type { Role } from "@sightline/contracts";
import { expect } from "vitest";
import type { TestContext } from "./app.js";
import { signIn } from "./auth.js";
import { type Client, clientFor } from "./client.js";
import { invitationTokenOf, outboxMessagesFor } from "./mail.js";

export interface Person {
  readonly email: string;
  readonly userId: string;
  readonly client: Client;
}

export type Team = Record<Role | "outsider", Person>;

/** Signs a person in (creating the account on first use). */
export async function person(ctx: TestContext, email: string): Promise<Person> {
  const signed = await signIn(ctx, email);
  return { email, userId: signed.userId, client: clientFor(ctx.app, signed.headers) };
}

/** The token of the newest invitation e-mailed to `email` (dev outbox). */
export async function newestInvitationToken(ctx: TestContext, email: string): Promise<string> {
  await ctx.deps.mail.flush();
  const messages = (await outboxMessagesFor(ctx.config.paths.outbox, email)).filter((raw) =>
    raw.includes("invitations/accept"),
  );
  const newest = messages.at(-1);
  if (newest === undefined) throw new Error(`no invitation e-mail for ${email}`);
  return invitationTokenOf(newest);
}

/** `inviter` invites `invitee` to the project with `role`, and the invitee accepts. */
export async function join(
  ctx: TestContext,
  inviter: Client,
  projectSlug: string,
  invitee: Person,
  role: Role,
): Promise<void> {
  const invited = await inviter.post(`/api/v1/projects/${projectSlug}/invitations`, {
    email: invitee.email,
    role,
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const token = await newestInvitationToken(ctx, invitee.email);
  const accepted = await invitee.client.post("/api/v1/invitations/accept", { token });
  expect(accepted.statusCode, accepted.body).toBe(200);
}

/** Signs in an owner, an admin, a member, a viewer and an outsider (who owns a project of their own). */
export async function signInTeam(ctx: TestContext, domain = "team.test"): Promise<Team> {
  const team = {
    owner: await person(ctx, `owner@${domain}`),
    admin: await person(ctx, `admin@${domain}`),
    member: await person(ctx, `member@${domain}`),
    viewer: await person(ctx, `viewer@${domain}`),
    outsider: await person(ctx, `outsider@${domain}`),
  };
  const own = await team.outsider.client.post("/api/v1/projects", { name: `Elsewhere ${domain}` });
  expect(own.statusCode, own.body).toBe(201);
  return team;
}

/** A project of the team's owner with the admin, member and viewer in their roles. */
export async function teamProject(ctx: TestContext, team: Team, slug: string): Promise<void> {
  const created = await team.owner.client.post("/api/v1/projects", { name: `Project ${slug}`, slug });
  expect(created.statusCode, created.body).toBe(201);
  for (const role of ["admin", "member", "viewer"] as const) {
    await join(ctx, team.owner.client, slug, team[role], role);
  }
}
