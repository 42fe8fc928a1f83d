// Ready-to-paste ways to send a first request record, filled with the real key, project and
// app: the Node SDK (@sightline/node) per framework, raw HTTP (curl) and the APILens Python SDK.
// Data, not code paths: a new SDK is one more entry here. Each snippet is plain text; the page
// renders it as text only.
export interface SnippetContext {
  /** The page's origin: where this Sightline is reached. */
  readonly baseUrl: string;
  /** The whole key when it was created on this visit; null shows a placeholder. */
  readonly apiKey: string | null;
  readonly projectSlug: string;
  readonly appSlug: string;
  readonly environment: string;
  /** Makes the curl batch's Idempotency-Key unique to this page visit. */
  readonly nonce: string;
}

export interface Snippet {
  readonly id: string;
  readonly label: string;
  readonly language: "shell" | "python" | "javascript" | "typescript";
  /** Shown above the code: what to install or where it goes. */
  readonly hint: string;
  render(context: SnippetContext): string;
}

export const API_KEY_PLACEHOLDER = "<your API key>";

const keyOf = (context: SnippetContext) => context.apiKey ?? API_KEY_PLACEHOLDER;
const apiBase = (context: SnippetContext) => `${context.baseUrl}/api/v1`;
/** The APILens SDKs' base URL: they post to `{base}/requests`, `{base}/logs` and `{base}/traces`. */
const apilensBase = (context: SnippetContext) => `${apiBase(context)}/ingest`;
/** Single-quoted for a POSIX shell: safe whatever the value holds. */
const shellQuote = (value: string) => `'${value.replaceAll("'", `'"'"'`)}'`;
/** A Python string literal. */
const py = (value: string) => JSON.stringify(value);
/** A JavaScript string literal. */
const js = (value: string) => JSON.stringify(value);

/** The SDK client every Node snippet creates: this server, the key, the app, the environment. */
const createClient = (context: SnippetContext, exported = false) => [
  `${exported ? "export " : ""}const sightline = createSightline({`,
  `  apiKey: ${js(keyOf(context))},`,
  `  app: ${js(context.appSlug)},`,
  `  url: ${js(context.baseUrl)},`,
  `  environment: ${js(context.environment)},`,
  "});",
];

const port = "Number(process.env.PORT ?? 3000)";

/** One Node framework's quick start: a whole file (or two) serving GET /hello, recorded. */
const nodeSnippet = (
  id: string,
  label: string,
  hint: string,
  language: "javascript" | "typescript",
  body: (context: SnippetContext) => string[],
): Snippet => ({
  id,
  label,
  language,
  hint,
  render: (context) => body(context).join("\n"),
});

const express = nodeSnippet(
  "node-express",
  "Express",
  "npm install @sightline/node express, then node server.mjs: every request is recorded with its route template.",
  "javascript",
  (context) => [
    "// server.mjs",
    'import express from "express";',
    'import { createSightline } from "@sightline/node";',
    'import { sightlineErrorHandler, sightlineMiddleware } from "@sightline/node/express";',
    "",
    ...createClient(context),
    "",
    "const app = express();",
    "app.use(sightlineMiddleware(sightline)); // first, before your routes",
    'app.get("/hello", (req, res) => res.json({ hello: "world" }));',
    "app.use(sightlineErrorHandler(sightline)); // after your routes, before your error handlers",
    `app.listen(${port});`,
  ],
);

const fastify = nodeSnippet(
  "node-fastify",
  "Fastify",
  "npm install @sightline/node fastify, then node server.mjs: every request is recorded with its route template.",
  "javascript",
  (context) => [
    "// server.mjs",
    'import Fastify from "fastify";',
    'import { createSightline } from "@sightline/node";',
    'import { sightlinePlugin } from "@sightline/node/fastify";',
    "",
    ...createClient(context),
    "",
    "const app = Fastify();",
    "await app.register(sightlinePlugin(sightline)); // hooks apply to the whole app",
    'app.get("/hello", async () => ({ hello: "world" }));',
    `await app.listen({ port: ${port} });`,
  ],
);

const hono = nodeSnippet(
  "node-hono",
  "Hono",
  "npm install @sightline/node hono @hono/node-server, then node server.mjs: every request is recorded with its route template.",
  "javascript",
  (context) => [
    "// server.mjs (on Bun, Deno or Workers, export app.fetch instead of serve)",
    'import { serve } from "@hono/node-server";',
    'import { Hono } from "hono";',
    'import { createSightline } from "@sightline/node";',
    'import { sightlineHono } from "@sightline/node/hono";',
    "",
    ...createClient(context),
    "",
    "const app = new Hono();",
    "app.use(sightlineHono(sightline));",
    'app.get("/hello", (c) => c.json({ hello: "world" }));',
    `serve({ fetch: app.fetch, port: ${port} });`,
  ],
);

const koa = nodeSnippet(
  "node-koa",
  "Koa",
  "npm install @sightline/node koa @koa/router, then node server.mjs: every request is recorded with its route template.",
  "javascript",
  (context) => [
    "// server.mjs",
    'import Router from "@koa/router";',
    'import Koa from "koa";',
    'import { createSightline } from "@sightline/node";',
    'import { sightlineKoa } from "@sightline/node/koa";',
    "",
    ...createClient(context),
    "",
    "const app = new Koa();",
    "const router = new Router();",
    'router.get("/hello", (ctx) => {',
    '  ctx.body = { hello: "world" };',
    "});",
    "app.use(sightlineKoa(sightline)); // before the router",
    "app.use(router.routes());",
    `app.listen(${port});`,
  ],
);

const nestjs = nodeSnippet(
  "node-nestjs",
  "NestJS",
  "npm install @sightline/node in your Nest app, then import SightlineModule once, in the root module.",
  "typescript",
  (context) => [
    "// app.module.ts",
    'import { Controller, Get, Module } from "@nestjs/common";',
    'import { createSightline } from "@sightline/node";',
    'import { SightlineModule } from "@sightline/node/nestjs";',
    "",
    ...createClient(context),
    "",
    "@Controller()",
    "class HelloController {",
    '  @Get("hello")',
    "  hello() {",
    '    return { hello: "world" };',
    "  }",
    "}",
    "",
    "// Every request is recorded with its controller route; Nest answers exceptions as usual.",
    "@Module({ imports: [SightlineModule.forRoot(sightline)], controllers: [HelloController] })",
    "export class AppModule {}",
  ],
);

const nextjs = nodeSnippet(
  "node-nextjs",
  "Next.js",
  "npm install @sightline/node in your Next.js app, then wrap each App Router route handler.",
  "typescript",
  (context) => [
    "// lib/sightline.ts",
    'import { createSightline } from "@sightline/node";',
    "",
    ...createClient(context, true),
    "",
    "// app/hello/route.ts (App Router route handlers; wrap each one)",
    'import { withSightline } from "@sightline/node/next";',
    'import { sightline } from "@/lib/sightline";',
    "",
    'export const GET = withSightline(sightline, async () => Response.json({ hello: "world" }), {',
    "  route: import.meta.url, // recorded as this file's route: /hello",
    "});",
  ],
);

/** The Node SDK's quick starts, one per framework it has an adapter for. */
export const NODE_SNIPPETS: readonly Snippet[] = [express, fastify, hono, koa, nestjs, nextjs];

const curl: Snippet = {
  id: "curl",
  label: "curl",
  language: "shell",
  hint: "Sends one request record now, from any terminal.",
  render(context) {
    const body = JSON.stringify(
      {
        requests: [
          {
            app_id: context.appSlug,
            timestamp: "__NOW__",
            environment: context.environment,
            method: "GET",
            path: "/hello",
            status_code: 200,
            response_time_ms: 12.5,
          },
        ],
      },
      null,
      2,
    )
      .split("\n")
      .map((line, index) => (index === 0 ? line : `  ${line}`))
      .join("\n")
      .replaceAll("'", `'"'"'`);
    // The timestamp is the moment the command runs, filled in by the shell.
    const data = `'${body.replace('"__NOW__"', `"'"$(date -u +%Y-%m-%dT%H:%M:%SZ)"'"`)}'`;
    return [
      `curl -X POST ${shellQuote(`${apiBase(context)}/ingest/requests`)} \\`,
      `  -H ${shellQuote(`X-API-Key: ${keyOf(context)}`)} \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -H ${shellQuote(`Idempotency-Key: first-request-${context.nonce}`)} \\`,
      `  -d ${data}`,
    ].join("\n");
  },
};

const pythonFastapi: Snippet = {
  id: "python-fastapi",
  label: "Python · FastAPI",
  language: "python",
  hint: "The APILens Python SDK works with Sightline unchanged: pip install 'apilenss[fastapi]', then point base_url here.",
  render(context) {
    return [
      "from fastapi import FastAPI",
      "from apilens.fastapi import ApiLensMiddleware",
      "",
      "app = FastAPI()",
      "app.add_middleware(",
      "    ApiLensMiddleware,",
      `    api_key=${py(keyOf(context))},`,
      `    project_slug=${py(context.projectSlug)},`,
      `    app_id=${py(context.appSlug)},`,
      `    base_url=${py(apilensBase(context))},`,
      `    env=${py(context.environment)},`,
      ")",
    ].join("\n");
  },
};

const pythonClient: Snippet = {
  id: "python-client",
  label: "Python · any framework",
  language: "python",
  hint: "The APILens Python SDK's client, for Flask, Django or a script: pip install apilenss.",
  render(context) {
    return [
      "from apilens import ApiLensClient, ApiLensConfig",
      "",
      "client = ApiLensClient(",
      "    ApiLensConfig(",
      `        api_key=${py(keyOf(context))},`,
      `        project_slug=${py(context.projectSlug)},`,
      `        base_url=${py(apilensBase(context))},`,
      `        environment=${py(context.environment)},`,
      "    )",
      ")",
      "",
      "client.capture(",
      `    app_id=${py(context.appSlug)},`,
      '    method="GET",',
      '    path="/hello",',
      "    status_code=200,",
      "    response_time_ms=12.5,",
      ")",
      "client.shutdown(flush=True)",
    ].join("\n");
  },
};

export const SNIPPETS: readonly Snippet[] = [...NODE_SNIPPETS, curl, pythonFastapi, pythonClient];

/** The snippet to show first for an app's declared framework. */
export function defaultSnippetFor(framework: string): Snippet {
  if (["fastapi", "starlette"].includes(framework)) return pythonFastapi;
  if (["django", "flask"].includes(framework)) return pythonClient;
  return NODE_SNIPPETS.find((snippet) => snippet.id === `node-${framework}`) ?? curl;
}
