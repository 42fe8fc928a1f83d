// Shared steps of the identity suites: an app wired to a real SMTP server on loopback, and
// sign-in by reading the link out of the message that server received.
import type { TokenPair } from "@sightline/contracts";
import { expect } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { subjectOf } from "../support/auth.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { magicLinkTokenOf } from "../support/mail.js";
import type { MetadataBackend } from "../support/metadata.js";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.js";

export const PUBLIC_URL = "https://sightline.test";
export const MAIL_FROM = "Sightline <signin@sightline.test>";

export interface IdentityHarness {
  readonly ctx: TestContext;
  readonly smtp: TestSmtpServer;
  readonly clock: ManualClock;
  close(): Promise<void>;
}

export async function startIdentityHarness(
  backend: MetadataBackend,
  env: Readonly<Record<string, string>> = {},
): Promise<IdentityHarness> {
  const smtp = await startSmtpServer();
  const clock = manualClock();
  const ctx = await createTestContext({
    metadata: backend,
    clock,
    env: { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM, ...env },
  });
  return {
    ctx,
    smtp,
    clock,
    async close() {
      await ctx.close();
      await smtp.close();
    },
  };
}

export interface Client {
  readonly ip?: string;
  readonly userAgent?: string;
}

function clientOptions(client: Client = {}) {
  return {
    ...(client.ip === undefined ? {} : { remoteAddress: client.ip }),
    ...(client.userAgent === undefined ? {} : { headers: { "user-agent": client.userAgent } }),
  };
}

/** POST /auth/magic-link and the token from the message the SMTP server received. */
export async function requestLinkToken(
  h: IdentityHarness,
  email: string,
  client: Client = {},
): Promise<string> {
  const before = h.smtp.mailsTo(email).length;
  const response = await h.ctx.app.inject({
    method: "POST",
    url: "/api/v1/auth/magic-link",
    payload: { email },
    ...clientOptions(client),
  });
  expect(response.statusCode, response.body).toBe(200);
  const mail = await h.smtp.waitForMail(email, { after: before });
  return magicLinkTokenOf(mail.raw);
}

export interface Signed {
  readonly userId: string;
  readonly pair: TokenPair;
  readonly headers: { authorization: string };
}

export function signed(pair: TokenPair): Signed {
  return {
    userId: subjectOf(pair.access_token),
    pair,
    headers: { authorization: `Bearer ${pair.access_token}` },
  };
}

/** The whole magic-link flow over SMTP; `body` adds verify fields (device_info, remember_me). */
export async function signInBySmtp(
  h: IdentityHarness,
  email: string,
  options: { client?: Client; body?: Record<string, unknown> } = {},
): Promise<Signed> {
  const token = await requestLinkToken(h, email, options.client);
  const response = await h.ctx.app.inject({
    method: "POST",
    url: "/api/v1/auth/verify",
    payload: { token, ...options.body },
    ...clientOptions(options.client),
  });
  expect(response.statusCode, response.body).toBe(200);
  return signed(response.json<TokenPair>());
}

export async function post(
  h: IdentityHarness,
  url: string,
  payload: Record<string, unknown>,
  options: { headers?: Record<string, string>; ip?: string } = {},
) {
  return h.ctx.app.inject({
    method: "POST",
    url,
    payload,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.ip === undefined ? {} : { remoteAddress: options.ip }),
  });
}

export function claimsOf(accessToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(accessToken.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<
    string,
    unknown
  >;
}

/** A client address no other test in the file uses, so per-address limits do not interfere. */
let ipCounter = 0;
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter}`;
}
