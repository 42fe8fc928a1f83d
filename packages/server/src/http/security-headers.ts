// Headers every answer carries: browsers must not second-guess our content types (nosniff), and
// HTML pages (the API reference, the dashboard) do not leak their URLs to other sites they link to.
import type { App } from "./types.js";

/** On every answer, including problems and the raw answers of the connection handler. */
export const SECURITY_HEADERS = { "X-Content-Type-Options": "nosniff" } as const;

const HTML_REFERRER_POLICY = "no-referrer";

export function registerSecurityHeaders(app: App): void {
  // onSend runs for every reply that goes through Fastify: routes, errors, 404s, static files.
  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("x-content-type-options", SECURITY_HEADERS["X-Content-Type-Options"]);
    const type = reply.getHeader("content-type");
    if (typeof type === "string" && type.startsWith("text/html")) {
      reply.header("referrer-policy", HTML_REFERRER_POLICY);
    }
    return payload;
  });
}
