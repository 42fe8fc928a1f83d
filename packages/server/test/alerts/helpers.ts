// Set-up of the alert suites, through the production path: a real SMTP server receives all mail
// (sign-in links and alert e-mails), a real HTTP receiver stands in for webhook and Slack targets,
// the owner signs in and creates a project, apps and a key over HTTP, and records go through the
// real ingest route. The clock is manual: evaluation ticks and retries happen when the test says.
import type { TokenPair } from "@sightline/contracts";
import { expect } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { type Client, clientFor } from "../support/client.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { type HttpReceiver, startHttpReceiver } from "../support/http-receiver.js";
import { magicLinkTokenOf } from "../support/mail.js";
import type { MetadataBackend } from "../support/metadata.js";
import { ingest, request } from "../support/query-fixture.js";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.js";

export const T0 = new Date("2026-03-30T12:00:00.000Z");

export interface AlertsFixture {
  readonly ctx: TestContext;
  readonly clock: ManualClock;
  readonly smtp: TestSmtpServer;
  readonly receiver: HttpReceiver;
  readonly owner: Client;
  readonly ownerEmail: string;
  readonly key: string;
  /** Records through POST /ingest/requests, `secondsAgo` before the clock's now. */
  send(count: number, fields?: Record<string, unknown>, secondsAgo?: number): Promise<void>;
  /** One evaluator tick at the clock's now, then every notification due is sent. */
  tick(): Promise<void>;
  close(): Promise<void>;
}

/** Signs `email` in through the magic link the SMTP server received. */
export async function signInOverSmtp(ctx: TestContext, smtp: TestSmtpServer, email: string): Promise<Client> {
  const before = smtp.mailsTo(email).length;
  const asked = await ctx.app.inject({ method: "POST", url: "/api/v1/auth/magic-link", payload: { email } });
  expect(asked.statusCode, asked.body).toBe(200);
  await ctx.deps.mail.flush();
  const mail = await smtp.waitForMail(email, { after: before });
  const verified = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/auth/verify",
    payload: { token: magicLinkTokenOf(mail.raw) },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return clientFor(ctx.app, { authorization: `Bearer ${verified.json<TokenPair>().access_token}` });
}

export async function created<T = { id: string }>(client: Client, url: string, body: unknown): Promise<T> {
  const response = await client.post(url, body);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(201);
  return response.json<T>();
}

export async function createAlertsFixture(
  metadata: MetadataBackend,
  env: Readonly<Record<string, string>> = {},
): Promise<AlertsFixture> {
  const smtp = await startSmtpServer();
  const receiver = await startHttpReceiver();
  const clock = manualClock(T0);
  const ctx = await createTestContext({
    metadata,
    clock,
    env: {
      SMTP_URL: smtp.url,
      PUBLIC_URL: "https://sightline.example.com",
      REQUESTS_RETENTION_DAYS: "3650",
      ALERTS_ALLOW_PRIVATE_TARGETS: "true",
      ...env,
    },
  });
  const ownerEmail = "owner@shop.test";
  // Access tokens live 15 minutes of the manual clock: sign in again when it has moved on.
  let signed = { client: await signInOverSmtp(ctx, smtp, ownerEmail), at: clock.now().getTime() };
  const fresh = async (): Promise<Client> => {
    if (clock.now().getTime() - signed.at > 10 * 60_000) {
      signed = { client: await signInOverSmtp(ctx, smtp, ownerEmail), at: clock.now().getTime() };
    }
    return signed.client;
  };
  const owner: Client = {
    get: async (url) => (await fresh()).get(url),
    post: async (url, body) => (await fresh()).post(url, body),
    patch: async (url, body) => (await fresh()).patch(url, body),
    delete: async (url) => (await fresh()).delete(url),
  };
  await created(owner, "/api/v1/projects", { name: "Shop", slug: "shop" });
  for (const slug of ["checkout", "billing", "search", "quiet"]) {
    await created(owner, "/api/v1/projects/shop/apps", { name: slug, slug });
  }
  const { key } = await created<{ key: string }>(owner, "/api/v1/projects/shop/api-keys", { name: "ingest" });
  return {
    ctx,
    clock,
    smtp,
    receiver,
    owner,
    ownerEmail,
    key,
    async send(count, fields = {}, secondsAgo = 30) {
      const at = new Date(clock.now().getTime() - secondsAgo * 1000);
      const records = Array.from({ length: count }, () => request(at, fields));
      await ingest(ctx, "requests", records, key);
    },
    async tick() {
      await ctx.deps.alerts.scheduler.tick();
      await ctx.deps.alerts.deliveries.runDue();
      await ctx.deps.mail.flush();
    },
    async close() {
      await ctx.close();
      await smtp.close();
      await receiver.close();
    },
  };
}
