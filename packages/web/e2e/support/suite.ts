// One real server and the shared browser for a test file. Contexts opened through the suite
// are checked at the end: no request beyond 127.0.0.1, no console error, no CSP violation.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { connectBrowser, openContext, type Opened } from "./browser";
import { type Sightline, startSightline } from "./server";

export interface BrowserSuite {
  readonly server: Sightline;
  readonly browser: Browser;
  open(options?: Parameters<typeof openContext>[2]): Promise<Opened>;
}

/** Call inside `describe`: registers the hooks, returns the suite (filled in by beforeAll). */
export function browserSuite(options: { env?: Readonly<Record<string, string>> } = {}): BrowserSuite {
  let server: Sightline | undefined;
  let browser: Browser | undefined;
  const opened: Opened[] = [];
  beforeAll(async () => {
    [server, browser] = await Promise.all([startSightline(options.env), connectBrowser()]);
  });
  afterAll(async () => {
    for (const context of opened) expect(context.problems, "browser problems").toEqual([]);
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (server === undefined) throw new Error("the suite's server is not started yet");
      return server;
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
