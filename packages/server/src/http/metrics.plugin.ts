// Prometheus exposure: times every answer under its route pattern (never the raw URL, so a
// slug or id cannot grow the series count), and serves GET /metrics outside /api/v1 behind
// METRICS_TOKEN. Without a token the route answers 404, like any unknown path.
import { createHash, timingSafeEqual } from "node:crypto";
import fp from "fastify-plugin";
import { AppError } from "../errors.js";
import type { Metrics } from "../metrics/index.js";
import type { App } from "./types.js";

export const METRICS_PATH = "/metrics";
/** The route label of answers no route matched (404s, framework errors before routing). */
export const UNMATCHED_ROUTE = "(unmatched)";

export interface MetricsPluginOptions {
  readonly metrics: Metrics;
  /** The bearer token a scraper sends; undefined: /metrics is not served. */
  readonly token: string | undefined;
}

const BEARER = /^Bearer\s+(\S+)$/i;

export const metricsPlugin = fp(
  async (app: App, { metrics, token }: MetricsPluginOptions) => {
    app.addHook("onResponse", async (request, reply) => {
      metrics.httpResponse(
        request.routeOptions.url ?? UNMATCHED_ROUTE,
        request.method,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    });

    const expected = token === undefined ? undefined : digest(token);
    app.get(
      METRICS_PATH,
      // Operational, not part of the versioned API: left out of the OpenAPI document (docs/metrics.md).
      { schema: { hide: true } },
      async (request, reply) => {
        if (expected === undefined) return reply.callNotFound();
        const sent = BEARER.exec(request.headers.authorization?.trim() ?? "")?.[1];
        if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
          throw new AppError("authentication_error", "Send Authorization: Bearer <METRICS_TOKEN>.", {
            headers: { "www-authenticate": 'Bearer realm="sightline-metrics"' },
          });
        }
        const { contentType, body } = await metrics.render();
        return reply.header("cache-control", "no-store").type(contentType).send(body);
      },
    );
  },
  { name: "sightline-metrics", dependencies: ["sightline-errors"] },
);

/** Compared as digests: equal lengths for timingSafeEqual, whatever was sent. */
function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
