// Browser contexts for the tests, each with guards that fail the test afterwards: a request to
// any host but 127.0.0.1, a console error or uncaught exception, a CSP violation, a dialog
// (an XSS would open one). Plus the fast sign-in for tests that are not about signing in.
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";
import type { Sightline } from "./server";

export async function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject("browserWsEndpoint"));
}

export interface Opened {
  readonly context: BrowserContext;
  readonly page: Page;
  /** What went wrong so far; a test ends by expecting this to be empty. */
  readonly problems: string[];
  close(): Promise<void>;
}

/** The API's expected refusals (401 on a signed-out page, 422 on a bad form) are logged by Chromium as console errors; they are answers, not faults. */
const NETWORK_LOG = /^Failed to load resource: the server responded with a status of (\d{3})/;

export async function openContext(
  browser: Browser,
  server: Sightline,
  options: {
    colorScheme?: "light" | "dark";
    userAgent?: string;
    /** Server errors the test causes on purpose (e.g. 503 while it holds a store down). */
    expectedServerErrors?: readonly number[];
  } = {},
): Promise<Opened> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 860 },
    locale: "en-US",
    timezoneId: "UTC",
    reducedMotion: "reduce",
    colorScheme: options.colorScheme ?? "light",
    ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const problems: string[] = [];
  context.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol === "data:" || url.protocol === "blob:") return;
    if (url.hostname !== "127.0.0.1")
      problems.push(`request left 127.0.0.1: ${request.method()} ${request.url()}`);
  });
  await context.exposeBinding("__sightlineCspViolation", (_source, detail: string) => {
    problems.push(`CSP violation: ${detail}`);
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __sightlineCspViolation?: (detail: string) => void })
        .__sightlineCspViolation;
      report?.(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
    });
  });
  const page = await context.newPage();
  const expected = new Set(options.expectedServerErrors ?? []);
  context.on("page", (other) => watchPage(other, problems, expected));
  watchPage(page, problems, expected);
  return {
    context,
    page,
    problems,
    close: () => context.close(),
  };
}

function watchPage(page: Page, problems: string[], expectedServerErrors: ReadonlySet<number>): void {
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const status = NETWORK_LOG.exec(message.text())?.[1];
    if (status !== undefined && (status.startsWith("4") || expectedServerErrors.has(Number(status)))) return;
    problems.push(`console error on ${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught on ${page.url()}: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`unexpected dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
}

/** What the dashboard sends with every write. */
export function sameOriginHeaders(server: Sightline): Record<string, string> {
  return { origin: server.url, "x-sightline-csrf": "1" };
}

/** Signs the context in through the real API (link e-mailed to the outbox, then the cookie). */
export async function signInFast(context: BrowserContext, server: Sightline, email: string): Promise<void> {
  const since = Date.now() - 1000;
  const sent = await context.request.post("/api/v1/auth/magic-link", { data: { email } });
  if (!sent.ok()) throw new Error(`magic-link for ${email}: ${sent.status()} ${await sent.text()}`);
  const token = await server.linkTokenFor(email, since);
  const session = await context.request.post("/api/v1/auth/session", {
    data: { token },
    headers: sameOriginHeaders(server),
  });
  if (!session.ok()) throw new Error(`session for ${email}: ${session.status()} ${await session.text()}`);
}
