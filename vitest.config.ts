// Test runner configuration: one process per test file (chDB binds one data directory per
// process), TypeScript sources of every workspace resolved directly, no build needed.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@sightline/contracts": fileURLToPath(new URL("./packages/contracts/src/index.ts", import.meta.url)),
    },
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".vitest-results.json" }]] : ["default"],
  },
});
