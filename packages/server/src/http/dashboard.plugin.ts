// Serves the built dashboard (packages/web/dist) at `/`: hashed assets cached forever, the
// app's index.html for every other page path (the browser app routes itself), precompressed
// brotli/gzip siblings when the client takes them, and a strict Content-Security-Policy: the
// page may load nothing from any other origin. Paths under /api stay the API's (problem 404s).
import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { App } from "./types.js";

export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS = {
  "content-security-policy": DASHBOARD_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
} as const;

const IMMUTABLE = "public, max-age=31536000, immutable";

const NOT_BUILT_PAGE =
  "<!doctype html><title>Sightline</title><p>The dashboard is not built: run <code>npm run build</code> " +
  '(or <code>npm start</code>, which builds it), then reload. The API is at <a href="/api/v1/docs">/api/v1/docs</a>.</p>\n';

export interface DashboardOptions {
  /** The build output: index.html and assets/. */
  readonly distDir: string;
}

export const dashboardPlugin = fp(
  async (app: App, { distDir }: DashboardOptions) => {
    const built = existsSync(join(distDir, "index.html"));
    if (!built) app.log.warn({ distDir }, "dashboard not built: / serves a notice; run `npm run build`");

    await app.register(fastifyStatic, {
      root: distDir,
      serve: false,
      preCompressed: true,
      cacheControl: false,
      // Directory listings and dotfiles are never part of the app.
      dotfiles: "deny",
      index: false,
    });

    const sendFile = (reply: FastifyReply, file: string, cacheControl: string) =>
      reply
        .headers(SECURITY_HEADERS)
        .header("cache-control", cacheControl)
        .header("vary", "accept-encoding")
        .sendFile(file);

    app.route({
      method: ["GET", "HEAD"],
      url: "/*",
      schema: { hide: true },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const path = pathOf(request.url);
        if (path === "/api" || path.startsWith("/api/")) return reply.callNotFound();
        // No dot-segments or dotfiles: nothing outside the build, nothing hidden in it.
        if (path.includes("/.") || path.includes("\\") || path.includes("\0")) return reply.callNotFound();
        if (!built) {
          return reply
            .code(503)
            .headers(SECURITY_HEADERS)
            .header("cache-control", "no-store")
            .type("text/html; charset=utf-8")
            .send(NOT_BUILT_PAGE);
        }
        // Content-hashed names: a new build gets new names, so these never need revalidating.
        if (path.startsWith("/assets/")) return sendFile(reply, path.slice(1), IMMUTABLE);
        // Other files (favicon, the theme bootstrap) keep their names: revalidate every time.
        if (/\.[a-z0-9]+$/i.test(path)) return sendFile(reply, path.slice(1), "no-cache");
        return sendFile(reply, "index.html", "no-cache");
      },
    });
  },
  { name: "sightline-dashboard" },
);

function pathOf(url: string): string {
  const raw = url.split("?")[0] ?? "/";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
