// Builds the dashboard into dist/: hashed assets, a manifest (the bundle-budget test reads it),
// and nothing inline, so the server's CSP (script-src 'self', style-src 'self') holds.
import { fileURLToPath, URL } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * The dashboard may import only types from @sightline/contracts (TypeBox must not ship), except
 * its plain word lists (`@sightline/contracts/vocabulary`, no TypeBox), read from the source.
 */
const VOCABULARY = "@sightline/contracts/vocabulary";

function contractsTypesOnly(): Plugin {
  return {
    name: "sightline-contracts-types-only",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === VOCABULARY) return null;
      if (source === "@sightline/contracts" || source.startsWith("@sightline/contracts/")) {
        this.error(`${importer ?? "?"} imports @sightline/contracts at run time; use \`import type\`.`);
      }
      return null;
    },
  };
}

export default defineConfig({
  plugins: [react(), contractsTypesOnly()],
  resolve: {
    // Radix's scroll lock would inject a <style> element, which the CSP refuses: see the module.
    alias: {
      "react-remove-scroll": fileURLToPath(new URL("./src/lib/remove-scroll.tsx", import.meta.url)),
      [VOCABULARY]: fileURLToPath(new URL("../contracts/src/vocabulary.ts", import.meta.url)),
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    target: "es2022",
    // Every asset is a file of its own: no data: URIs beyond what the CSP needs.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: {
    proxy: { "/api": { target: "http://127.0.0.1:8080", changeOrigin: false } },
  },
});
