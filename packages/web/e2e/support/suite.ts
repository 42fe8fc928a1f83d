// One real server and the shared browser for a test file. Contexts opened through the suite
// are checked at the end: no request beyond 127.0.0.1, no console error, no CSP violation.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { connectBrowser, openContext, type Opened } from "./browser";
import { startSmtpServer, type TestSmtpServer } from "../../../server/test/support/smtp";
import { type Sightline, startSightline } from "./server";

export interface BrowserSuite<S extends Sightline = Sightline> {
  readonly server: S;
  readonly browser: Browser;
  /** The SMTP server every e-mail goes to, when the suite asked for one. */
  readonly smtp: TestSmtpServer;
  open(options?: Parameters<typeof openContext>[2]): Promise<Opened>;
}

interface SuiteOptions {
  smtp?: boolean;
  env?: Readonly<Record<string, string>>;
}

/** How the suite starts its server: the CLI as a child process unless the suite says otherwise. */
type Start<S extends Sightline> = (options: {
  smtp?: TestSmtpServer;
  env?: Readonly<Record<string, string>>;
}) => Promise<S>;

/**
 * Call inside `describe`: registers the hooks, returns the suite (filled in by beforeAll). With
 * `smtp`, e-mail goes over a real SMTP conversation to a test server instead of the outbox; `env`
 * adds server settings for the suite; `start` starts the server another way (e.g.
 * `startSightlineInProcess`, whose events store a test can close).
 */
export function browserSuite(options?: SuiteOptions): BrowserSuite;
export function browserSuite<S extends Sightline>(
  options: SuiteOptions & { start: Start<S> },
): BrowserSuite<S>;
export function browserSuite(options: SuiteOptions & { start?: Start<Sightline> } = {}): BrowserSuite {
  const start = options.start ?? startSightline;
  let server: Sightline | undefined;
  let browser: Browser | undefined;
  let smtp: TestSmtpServer | undefined;
  const opened: Opened[] = [];
  beforeAll(async () => {
    if (options.smtp) smtp = await startSmtpServer();
    [server, browser] = await Promise.all([
      start({
        ...(smtp === undefined ? {} : { smtp }),
        ...(options.env === undefined ? {} : { env: options.env }),
      }),
      connectBrowser(),
    ]);
  });
  afterAll(async () => {
    for (const context of opened) expect(context.problems, "browser problems").toEqual([]);
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });
  return {
    get server() {
      if (server === undefined) throw new Error("the suite's server is not started yet");
      return server;
    },
    get smtp() {
      if (smtp === undefined) throw new Error("this suite has no SMTP server (browserSuite({ smtp: true }))");
      return smtp;
    },
    get browser() {
      if (browser === undefined) throw new Error("the suite's browser is not connected yet");
      return browser;
    },
    async open(options) {
      const context = await openContext(this.browser, this.server, options);
      opened.push(context);
      return context;
    },
  };
}
