// Once per browser-test run: one Chromium for every test file (files connect over its
// WebSocket), or, outside CI with no browser installed, a skip that says why. In CI a missing
// browser fails the run.
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumAvailable, INSTALL_HINT } from "./chromium";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared browser's WebSocket endpoint; empty when the tests are skipped. */
    browserWsEndpoint: string;
    /** Why the browser tests are skipped; empty when they run. */
    browserSkipReason: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!chromiumAvailable()) {
    if (process.env.CI) throw new Error(`No browser at ${CHROMIUM_PATH}. ${INSTALL_HINT}`);
    const reason = `browser tests skipped: no browser at ${CHROMIUM_PATH}. ${INSTALL_HINT}`;
    process.stdout.write(`\n${reason}\n\n`);
    project.provide("browserWsEndpoint", "");
    project.provide("browserSkipReason", reason);
    return async () => undefined;
  }
  // Playwright gives the browser a fresh, temporary profile (user data dir) of its own.
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  project.provide("browserWsEndpoint", server.wsEndpoint());
  project.provide("browserSkipReason", "");
  return async () => {
    await server.close();
  };
}
