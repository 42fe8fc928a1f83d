// The OpenAPI 3.1 document, generated from the route schemas, and the interactive reference
// at /api/v1/docs. Swagger UI's assets are served from node_modules: no CDN, works offline.

import swagger from "@fastify/swagger";
import swaggerUi, { type FastifySwaggerUiConfigOptions } from "@fastify/swagger-ui";
import { ProblemSchema, SESSION_COOKIE_NAME } from "@sightline/contracts";
import fp from "fastify-plugin";
import { API_VERSION } from "../version.js";
import type { App } from "./types.js";

export const API_PREFIX = "/api/v1";

export const API_TAGS = [
  { name: "meta", description: "Health, the OpenAPI document and the reference." },
  { name: "auth", description: "Passwordless sign-in, password login and session tokens." },
  { name: "users", description: "The signed-in user's profile, password and sessions." },
  { name: "projects", description: "Projects: the top of the resource tree." },
  { name: "apps", description: "Apps within a project." },
  { name: "api-keys", description: "Keys that ingesting applications authenticate with." },
  { name: "environments", description: "Configured and discovered environments of an app." },
  { name: "endpoints", description: "The endpoint catalogue of an app." },
  { name: "ingest", description: "Request and log records sent by instrumented applications." },
  { name: "opentelemetry", description: "OTLP/HTTP receivers for OpenTelemetry traces and logs." },
  { name: "data", description: "Searching request and log records." },
  { name: "analytics", description: "Aggregates over request records." },
  { name: "sessions", description: "The signed-in user's sessions (devices)." },
  { name: "tokens", description: "Personal access tokens: call the API as yourself from scripts." },
  { name: "members", description: "A project's members, their roles and ownership." },
  { name: "invitations", description: "Inviting people to projects, and answering invitations." },
  { name: "audit", description: "Who did what in a project, and when." },
  { name: "alerts", description: "Alert rules on error rate, latency and traffic, their state and history." },
  { name: "notification-channels", description: "Where alerts are sent: e-mail, signed webhooks, Slack." },
  {
    name: "mcp",
    description: "The Model Context Protocol endpoint for AI agents (tools, resources, prompts).",
  },
  {
    name: "api-contract",
    description:
      "The OpenAPI document inferred from an app's traffic, its versions and classified changes with the " +
      "consumers they affect, the declared document, and contract-change alerts.",
  },
  {
    name: "slos",
    description: "Service level objectives: attainment, error budget, burn rates and burn-rate alerts.",
  },
  {
    name: "uptime",
    description: "HTTP uptime checks run by Sightline: their state, uptime percentages, results and alerts.",
  },
  {
    name: "saved-views",
    description: "Named page filters of the dashboard, per user and optionally shared with the project.",
  },
] as const;

const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self'",
].join("; ");

/** A wordmark for the reference's top bar (inline SVG: no asset to fetch). */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="36" viewBox="0 0 150 36">' +
  '<circle cx="18" cy="18" r="11" fill="none" stroke="#4ade80" stroke-width="3"/>' +
  '<circle cx="18" cy="18" r="4" fill="#4ade80"/>' +
  '<text x="36" y="25" font-family="sans-serif" font-size="20" font-weight="600" fill="#ffffff">Sightline</text>' +
  "</svg>";

/** Swagger UI's settings. `queryConfigEnabled` (passed through, missing from the plugin's types):
 *  `?url=` opens another document in the same viewer — the dashboard's inferred API contracts;
 *  the CSP's connect-src 'self' keeps it to documents this server serves. */
const UI_CONFIG: FastifySwaggerUiConfigOptions & { queryConfigEnabled: boolean } = {
  deepLinking: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  queryConfigEnabled: true,
};

export type ApiTag = (typeof API_TAGS)[number]["name"];

export const openApiPlugin = fp(
  async (app: App) => {
    app.addSchema(ProblemSchema);
    await app.register(swagger, {
      openapi: {
        openapi: "3.1.0",
        info: {
          title: "Sightline API",
          version: API_VERSION,
          description:
            "Self-hostable API observability. Errors are RFC 9457 problem+json bodies whose `error` " +
            "member is a stable code (see docs/errors.md); every response carries `X-Request-Id`.",
        },
        tags: [...API_TAGS],
        components: {
          securitySchemes: {
            bearerAuth: {
              type: "http",
              scheme: "bearer",
              bearerFormat: "JWT",
              description:
                "An access token from sign-in, or a personal access token `sl_pat_…` (Account → Security), " +
                "which acts with your role capped by its scope and projects.",
            },
            apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
            sessionCookie: { type: "apiKey", in: "cookie", name: SESSION_COOKIE_NAME },
          },
        },
      },
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) =>
          typeof json.$id === "string" ? json.$id : `def-${i}`,
      },
    });
    await app.register(swaggerUi, {
      routePrefix: `${API_PREFIX}/docs`,
      // Same-origin only: the reference must work with no network beyond this server.
      staticCSP: DOCS_CSP,
      uiConfig: UI_CONFIG,
      theme: { title: "Sightline API reference" },
      logo: { type: "image/svg+xml", content: Buffer.from(LOGO_SVG), href: `${API_PREFIX}/docs` },
    });
  },
  { name: "sightline-openapi" },
);
