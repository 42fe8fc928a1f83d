// Signing a user in for route suites, through the real flow: POST /auth/magic-link, the
// development mailer's .eml in DATA_DIR/outbox, POST /auth/verify. No shortcut into the store.
// Limits apply as in production: 3 links per minute per address, 20 per minute per client
// address (inject's default 127.0.0.1; pass `ip` to spread a suite over several).
import type { TokenPair } from "@sightline/contracts";
import type { TestContext } from "./app.js";
import { magicLinkTokenOf, outboxMessagesFor } from "./mail.js";

export interface SignedIn {
  readonly userId: string;
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly headers: { authorization: string };
}

export interface SignInOptions {
  /** Client address of both requests (default: inject's 127.0.0.1). */
  readonly ip?: string;
  readonly deviceInfo?: string;
  readonly rememberMe?: boolean;
}

/** Signs `email` in (creating the account on first use); needs the dev mailer (no SMTP_URL). */
export async function signIn(
  ctx: TestContext,
  email: string,
  options: SignInOptions = {},
): Promise<SignedIn> {
  const remote = options.ip === undefined ? {} : { remoteAddress: options.ip };
  const requested = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/auth/magic-link",
    payload: { email },
    ...remote,
  });
  if (requested.statusCode !== 200) {
    throw new Error(`magic-link for ${email} answered ${requested.statusCode}: ${requested.body}`);
  }
  await ctx.deps.mail.flush();
  const messages = await outboxMessagesFor(ctx.config.paths.outbox, email.trim().toLowerCase());
  const newest = messages.at(-1);
  if (newest === undefined) throw new Error(`no sign-in e-mail for ${email} in ${ctx.config.paths.outbox}`);

  const verified = await ctx.app.inject({
    method: "POST",
    url: "/api/v1/auth/verify",
    payload: {
      token: magicLinkTokenOf(newest),
      ...(options.deviceInfo === undefined ? {} : { device_info: options.deviceInfo }),
      ...(options.rememberMe === undefined ? {} : { remember_me: options.rememberMe }),
    },
    ...remote,
  });
  if (verified.statusCode !== 200) {
    throw new Error(`verify for ${email} answered ${verified.statusCode}: ${verified.body}`);
  }
  const pair = verified.json<TokenPair>();
  return {
    userId: subjectOf(pair.access_token),
    accessToken: pair.access_token,
    refreshToken: pair.refresh_token,
    headers: { authorization: `Bearer ${pair.access_token}` },
  };
}

/** The `sub` claim of a JWT (read, not verified: the server verified it). */
export function subjectOf(accessToken: string): string {
  const payload = accessToken.split(".")[1] ?? "";
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { sub?: unknown };
  if (typeof claims.sub !== "string") throw new Error("access token without sub");
  return claims.sub;
}
