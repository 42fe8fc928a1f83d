// Test runner configuration: one process per test file (chDB binds one data directory per
// process), TypeScript sources of every workspace resolved directly, no build needed.
// Two projects: `unit` (every suite that needs no browser, the dashboard's component tests on
// happy-dom included, with one ClickHouse server for the events-store suites) and `browser` (the
// dashboard in Debian's Chromium against the real server, after the unit project:
// `npm run test:browser` runs it alone).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      // The plain word lists first: the entry below would otherwise swallow the subpath.
      "@sightline/contracts/vocabulary": fileURLToPath(
        new URL("./packages/contracts/src/vocabulary.ts", import.meta.url),
      ),
      "@sightline/contracts": fileURLToPath(new URL("./packages/contracts/src/index.ts", import.meta.url)),
    },
  },
  test: {
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".vitest-results.json" }]] : ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // One ClickHouse server for the whole run: the events-store suites' second backend.
          globalSetup: ["packages/server/test/support/clickhouse-global-setup.ts"],
          include: [
            "packages/*/src/**/*.test.ts",
            "packages/*/test/**/*.test.ts",
            "packages/web/src/**/*.test.tsx",
            "bench/**/*.test.ts",
          ],
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["packages/web/e2e/**/*.e2e.ts"],
          globalSetup: ["packages/web/e2e/support/global-setup.ts"],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // A page's figures arrive over real HTTP from a real server on shared cores: the default
          // 1 s of expect.poll mistakes a loaded machine for a wrong page.
          expect: { poll: { timeout: 15_000 } },
          // After the unit project: the browser, its servers and chDB get the machine to themselves.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
