// Lint rules for every workspace: typescript-eslint's recommended set, no `any`, type-only
// imports marked as such, and the server's import boundaries. Formatting is Prettier's job.
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import boundaries from "eslint-plugin-boundaries";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const SERVER = "packages/server/src";
const WEB = "packages/web/src";
const SDK = "packages/sdk-node/src";
const resolverSettings = {
  "import/resolver": { [fileURLToPath(import.meta.resolve("./eslint.resolver.cjs"))]: {} },
};

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
      ...resolverSettings,
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
  // Import boundaries of the dashboard (packages/web/README.md, "Building a page"): the shared
  // layer (`components/`, `lib/`) never imports a feature; a feature uses another only through
  // its `index.ts`.
  {
    files: [`${WEB}/**/*.{ts,tsx}`],
    ignores: [`${WEB}/**/*.test.{ts,tsx}`],
    plugins: { boundaries },
    settings: {
      ...resolverSettings,
      "boundaries/elements": [
        { type: "feature", pattern: `${WEB}/features/*`, capture: ["name"] },
        { type: "shared", pattern: [`${WEB}/components`, `${WEB}/lib`, `${WEB}/styles`] },
        // The composition root: main.tsx and the route tree.
        { type: "root", pattern: WEB },
      ],
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "allow",
          policies: [
            {
              from: { element: { types: ["shared"] } },
              disallow: { to: { element: { type: "feature" } } },
              message: "components/ and lib/ are the shared layer: they must not import a feature.",
            },
            {
              from: { element: { types: ["feature"] } },
              disallow: { to: { element: { type: "feature", fileInternalPath: "!index.ts" } } },
              message: "Import another feature through its index.ts, its public surface.",
            },
          ],
        },
      ],
    },
  },
  // Import boundaries of the Node SDK: the core (client, transport, capture) never imports a
  // framework adapter or a logging integration, and adapters and integrations never import each other.
  {
    files: [`${SDK}/**/*.ts`],
    ignores: [`${SDK}/**/*.test.ts`],
    plugins: { boundaries },
    settings: {
      ...resolverSettings,
      "boundaries/elements": [
        { type: "adapter", pattern: `${SDK}/adapters` },
        { type: "integration", pattern: `${SDK}/logs` },
        { type: "core", pattern: [`${SDK}/capture`, `${SDK}/transport`] },
        // The public entry and the client: index.ts re-exports the integrations.
        { type: "root", pattern: SDK },
      ],
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "allow",
          policies: [
            {
              from: { element: { types: ["core"] } },
              disallow: { to: { element: { types: ["adapter", "integration"] } } },
              message:
                "capture/ and transport/ are the SDK's core: they must not import adapters or integrations.",
            },
            {
              from: { element: { types: ["adapter", "integration"] } },
              disallow: { to: { element: { types: ["adapter", "integration"] } } },
              message: "A framework adapter or log integration stands alone: share code through capture/.",
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
