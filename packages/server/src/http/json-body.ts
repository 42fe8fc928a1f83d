// The JSON body parser of every route outside ingest and OTLP (which bring their own): bodies
// are capped at JSON_BODY_LIMITS.bytes and, before JSON.parse, scanned for nesting deeper than
// JSON_BODY_LIMITS.depth with the ingest scanner (no allocation, one pass), so a body of
// `[[[[…` is refused in microseconds instead of holding the event loop in the parser and in
// every walk after it. Parsing itself stays Fastify's (prototype-poisoning checks, its errors).
import type { FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import { checkJson, JsonCapError, type JsonCaps } from "../lib/capped-json.js";
import type { App } from "./types.js";

export const JSON_BODY_LIMITS = {
  /** Bytes of a JSON body. The largest legitimate one (an alert channel with 20 addresses, a
   *  description of 2,000 characters sent as \u escapes) is a few tens of KB. */
  bytes: 256 * 1024,
  /** Nesting of arrays and objects; no route's body is deeper than 4. */
  depth: 32,
} as const;

/** Only depth bites: a body cannot hold more values than it has bytes. */
const CAPS: JsonCaps = {
  depth: JSON_BODY_LIMITS.depth,
  topLevelValues: JSON_BODY_LIMITS.bytes,
  records: JSON_BODY_LIMITS.bytes,
  recordValues: JSON_BODY_LIMITS.bytes,
};

/** Replaces Fastify's application/json parser with one that checks nesting first. */
export function registerJsonBodyParser(app: App): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "buffer" },
    (request: FastifyRequest, body: Buffer | string, done) => {
      const bytes = typeof body === "string" ? Buffer.from(body) : body;
      try {
        checkJson(bytes, CAPS);
      } catch (error) {
        // Not JSON: Fastify's parser says so in its own words.
        if (!(error instanceof JsonCapError)) return parse(request, bytes.toString("utf8"), done);
        return done(
          new AppError(
            "payload_too_large",
            `The body nests arrays and objects deeper than ${JSON_BODY_LIMITS.depth} levels ` +
              `(limit "depth"); no API body nests that deep.`,
            { extensions: { limit: "depth", maximum: JSON_BODY_LIMITS.depth } },
          ),
          undefined,
        );
      }
      return parse(request, bytes.toString("utf8"), done);
    },
  );
}
