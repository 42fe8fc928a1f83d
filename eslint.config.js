// Lint rules for every workspace: typescript-eslint's recommended set, no `any`, type-only
// imports marked as such, and the server's import boundaries. Formatting is Prettier's job.
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import boundaries from "eslint-plugin-boundaries";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const SERVER = "packages/server/src";

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/.next/**",
      "**/node_modules/**",
      "data/**",
      "packages/*/data/**",
      "coverage/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { process: "readonly", console: "readonly" },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: ["error", "always"],
      "no-console": "error",
    },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", exports: "writable" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  // Import boundaries of the server (docs/architecture.md, "Boundaries"): `stores/` and `http/`
  // never import `modules/`; a module is used from outside only through its `index.ts`.
  {
    files: [`${SERVER}/**/*.ts`],
    plugins: { boundaries },
    settings: {
      "import/resolver": { [fileURLToPath(import.meta.resolve("./eslint.resolver.cjs"))]: {} },
      "boundaries/elements": [
        { type: "module", pattern: `${SERVER}/modules/*`, capture: ["name"] },
        { type: "http", pattern: `${SERVER}/http` },
        { type: "stores", pattern: `${SERVER}/stores` },
        { type: "shared", pattern: [`${SERVER}/lib`, `${SERVER}/config`] },
        // Everything else: the composition root (main, deps, app, resources) and top-level files.
        { type: "root", pattern: SERVER },
      ],
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "allow",
          policies: [
            {
              from: { element: { types: ["http", "stores"] } },
              disallow: { to: { element: { type: "module" } } },
              message: "http/ and stores/ must not import modules/: pass what they need in as an interface.",
            },
            {
              disallow: { to: { element: { type: "module", fileInternalPath: "!index.ts" } } },
              message: "Import another module through its index.ts, its public surface.",
            },
          ],
        },
      ],
    },
  },
  {
    // The dashboard: hooks rules, and type imports written as `import type` so that nothing of
    // @sightline/contracts (TypeBox) can reach the browser bundle.
    files: ["packages/web/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "separate-type-imports" }],
      "@typescript-eslint/no-import-type-side-effects": "error",
    },
  },
  {
    files: ["packages/web/public/**/*.js"],
    languageOptions: { sourceType: "script", globals: { window: "readonly", document: "readonly" } },
  },
);
