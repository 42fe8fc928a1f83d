// Setting up ingest on a server running in another process, over HTTP only: sign in with the
// development mailer's outbox, create a project, an app and a project key. Used by the
// child-process tests and by `npm run bench:ingest`.
import { setTimeout as sleep } from "node:timers/promises";
import { magicLinkTokenOf, outboxMessagesFor } from "../support/mail.js";

export interface RemoteIngest {
  readonly accessToken: string;
  readonly projectSlug: string;
  readonly appSlug: string;
  /** A project key for X-API-Key. */
  readonly key: string;
}

async function call<T>(baseUrl: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Signs in through the magic-link flow, reading the link from `outboxDir` (no SMTP_URL). */
export async function signInRemote(baseUrl: string, outboxDir: string, email: string): Promise<string> {
  await call(baseUrl, "/auth/magic-link", { email });
  for (let attempt = 0; attempt < 200; attempt++) {
    const message = (await outboxMessagesFor(outboxDir, email)).at(-1);
    if (message !== undefined) {
      const pair = await call<{ access_token: string }>(baseUrl, "/auth/verify", {
        token: magicLinkTokenOf(message),
      });
      return pair.access_token;
    }
    await sleep(50);
  }
  throw new Error(`no sign-in e-mail for ${email} in ${outboxDir}`);
}

/** A signed-in owner with one project, one app and a project key (another `owner` and `project`
 *  name give a second tenant on the same server). */
export async function setUpRemoteIngest(
  baseUrl: string,
  outboxDir: string,
  { owner = "bench@example.com", project: projectName = "Bench" } = {},
): Promise<RemoteIngest> {
  const accessToken = await signInRemote(baseUrl, outboxDir, owner);
  const project = await call<{ slug: string }>(baseUrl, "/projects", { name: projectName }, accessToken);
  const app = await call<{ slug: string }>(
    baseUrl,
    `/projects/${project.slug}/apps`,
    { name: "API" },
    accessToken,
  );
  const key = await call<{ key: string }>(
    baseUrl,
    `/projects/${project.slug}/api-keys`,
    { name: "bench" },
    accessToken,
  );
  return { accessToken, projectSlug: project.slug, appSlug: app.slug, key: key.key };
}
