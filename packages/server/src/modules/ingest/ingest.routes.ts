// Routes of the ingest tag: POST /ingest/requests, /ingest/logs and /ingest/traces with X-API-Key. This plugin
// context reads bodies itself (JSON only, gzip/deflate, INGEST_MAX_BODY) and validates the
// envelope only: records are validated one by one so a bad record never sinks its neighbours
// (unless more than INGEST_LIMITS.invalidRecordsPerBatch are bad: then the batch is refused whole).
import {
  INGEST_LIMITS,
  IngestLogRecordSchema,
  IngestRejectedProblemSchema,
  IngestRequestRecordSchema,
  IngestResultSchema,
  IngestSpanRecordSchema,
  HeartbeatAnswerSchema,
  HEARTBEAT_LIMITS,
  IngestHeartbeatSchema,
} from "@sightline/contracts";
import type { FastifyRequest, FastifySchemaCompiler } from "fastify";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { validatorCompiler } from "../../http/validation.js";
import type { KeyPrincipal } from "./directory.js";
import { type BodyHashes, registerIngestBodyParser } from "./ingest.body.js";
import type { BatchInput, BatchOutcome, IngestService } from "./ingest.service.js";
import type { HeartbeatService } from "./heartbeat.service.js";
import { access } from "../access/index.js";

export interface IngestRoutesOptions {
  readonly ingest: IngestService;
  readonly heartbeats: HeartbeatService;
  /** INGEST_MAX_BODY: bytes after decompression. */
  readonly maxBodyBytes: number;
  /** INGEST_MAX_BATCH, for the documentation. */
  readonly maxBatch: number;
}

const IdempotencyHeaders = Type.Object({
  "idempotency-key": Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: INGEST_LIMITS.idempotencyKeyLength,
      pattern: "^[\\x21-\\x7E]+$",
      description:
        "Optional, 1–255 visible ASCII characters. A retry with the same key (same project, same route, " +
        "same body) within 24 hours gets the first answer again, with `Idempotent-Replayed: true`, and " +
        "stores nothing twice. The same key with another body: 409.",
      examples: ["batch-2026-11-21T06:00:00Z-0001"],
    }),
  ),
});

const problems = {
  ...problemResponses(400, 401, 409, 413, 415, 429, 503),
  // Every record rejected: the problem carries the per-record errors.
  422: IngestRejectedProblemSchema,
};

export async function ingestRoutes(app: App, options: IngestRoutesOptions): Promise<void> {
  const { ingest } = options;
  const principals = new WeakMap<FastifyRequest, KeyPrincipal>();
  const hashes: BodyHashes = new WeakMap();
  registerIngestBodyParser(app, { maxBytes: options.maxBodyBytes, maxBatch: options.maxBatch }, hashes);

  // Before the body is read: an unauthenticated client costs no parsing or decompression.
  app.addHook("onRequest", async (request) => {
    const header = request.headers["x-api-key"];
    const principal = await ingest.authenticate(Array.isArray(header) ? header[0] : header);
    await ingest.screen(principal);
    principals.set(request, principal);
  });

  const input = (request: FastifyRequest, records: readonly unknown[]): BatchInput => {
    const principal = principals.get(request);
    if (principal === undefined) throw new Error("ingest route reached without an authenticated key");
    const key = request.headers["idempotency-key"];
    const bodyHash = hashes.get(request);
    return {
      principal,
      records,
      idempotency: typeof key === "string" && bodyHash !== undefined ? { key, bodyHash } : undefined,
    };
  };
  const answer = (outcome: BatchOutcome, reply: { header(name: string, value: string): unknown }) => {
    if (outcome.replayed) reply.header("idempotent-replayed", "true");
    return outcome.result;
  };
  // The documented record array; the pipeline, not the route, applies the record schema.
  const batch = {
    maxItems: options.maxBatch,
    description: `At most ${options.maxBatch} records (INGEST_MAX_BATCH), counted before the body is parsed.`,
  };
  const common = (member: string) =>
    `Body: \`{"${member}": [record, ...]}\` with at most ${options.maxBatch} records (INGEST_MAX_BATCH, ` +
    `more: 413), at most ${options.maxBodyBytes} bytes after decompression (INGEST_MAX_BODY, more: 413); ` +
    "`Content-Type: application/json`, optionally `Content-Encoding: gzip` or `deflate`. Each record is " +
    "checked on its own: valid records are stored even when neighbours are rejected, and the answer lists " +
    `up to ${INGEST_LIMITS.listedErrors} problems as \`{index, pointer, message}\`. When every record is ` +
    "rejected the answer is a 422 problem with the same `errors`; so is it, with nothing stored, when more " +
    `than ${INGEST_LIMITS.invalidRecordsPerBatch} records are invalid (the batch is refused whole). Item caps, ` +
    "counted before the body is parsed (more: 413 naming the cap): arrays and objects nested at most " +
    `${INGEST_LIMITS.bodyDepth} deep, at most ${INGEST_LIMITS.topLevelValues} top-level values, at most ` +
    `${INGEST_LIMITS.recordValues} JSON values in one record (fields, header and attribute entries, ` +
    "everything nested). Fields a record has beyond those documented " +
    "are ignored and named once in `ignored_fields`. The answer comes once the accepted " +
    "records are stored. 429 with Retry-After: the project or the key is over its ingest rate or its share of " +
    "the rows waiting to be stored (INGEST_PROJECT_RATE, INGEST_KEY_RATE, INGEST_PROJECT_PENDING_SHARE); 503 " +
    "with Retry-After: the server is at capacity. Either way nothing of the batch was stored.";

  app.post(
    "/ingest/requests",
    {
      config: { access: access.apiKey, contentEncodings: ["gzip", "x-gzip", "deflate"] },
      schema: {
        operationId: "ingestRequests",
        tags: ["ingest"],
        summary: "Store a batch of request records",
        description: `${common("requests")} Endpoints (method and route template) and environments are registered as they are seen.`,
        security: [{ apiKey: [] }],
        headers: IdempotencyHeaders,
        body: Type.Object(
          { requests: Type.Array(IngestRequestRecordSchema, batch) },
          { additionalProperties: false },
        ),
        response: { 200: IngestResultSchema, ...problems },
      },
      validatorCompiler: envelopeCompiler("requests"),
    },
    async (request, reply) =>
      answer(await ingest.acceptRequests(input(request, request.body.requests as readonly unknown[])), reply),
  );

  app.post(
    "/ingest/logs",
    {
      config: { access: access.apiKey, contentEncodings: ["gzip", "x-gzip", "deflate"] },
      schema: {
        operationId: "ingestLogs",
        tags: ["ingest"],
        summary: "Store a batch of log records",
        description: `${common("logs")} Environments are registered as they are seen.`,
        security: [{ apiKey: [] }],
        headers: IdempotencyHeaders,
        body: Type.Object(
          { logs: Type.Array(IngestLogRecordSchema, batch) },
          { additionalProperties: false },
        ),
        response: { 200: IngestResultSchema, ...problems },
      },
      validatorCompiler: envelopeCompiler("logs"),
    },
    async (request, reply) =>
      answer(await ingest.acceptLogs(input(request, request.body.logs as readonly unknown[])), reply),
  );

  // The APILens SDKs post spans to `{base}/traces`: with base `<sightline>/api/v1/ingest`, here.
  app.post(
    "/ingest/traces",
    {
      config: { access: access.apiKey, contentEncodings: ["gzip", "x-gzip", "deflate"] },
      schema: {
        operationId: "ingestSpans",
        tags: ["ingest"],
        summary: "Store a batch of spans",
        description:
          `${common("spans")} Spans are the APILens SDKs' shape: one finished span each, with its trace ` +
          "and parent ids; read them back through `GET /projects/{project_slug}/data/traces`.",
        security: [{ apiKey: [] }],
        headers: IdempotencyHeaders,
        body: Type.Object(
          { spans: Type.Array(IngestSpanRecordSchema, batch) },
          { additionalProperties: false },
        ),
        response: { 200: IngestResultSchema, ...problems },
      },
      validatorCompiler: envelopeCompiler("spans"),
    },
    async (request, reply) =>
      answer(await ingest.acceptSpans(input(request, request.body.spans as readonly unknown[])), reply),
  );
  app.post(
    "/ingest/heartbeat",
    {
      config: { access: access.apiKey, contentEncodings: ["gzip", "x-gzip", "deflate"] },
      schema: {
        operationId: "ingestHeartbeat",
        tags: ["ingest"],
        summary: "Tell Sightline an app instance is alive",
        description:
          "One beat of a running instance (`@sightline/node` sends one at start and then once a minute): the " +
          "SDK, its version, the runtime, the process's CPU and memory. The newest beat of each instance is " +
          `kept (at most ${HEARTBEAT_LIMITS.instancesPerApp} instances per app, the oldest forgotten); the apps ` +
          "API shows `last_heartbeat_at` and `alive` from them. Costs one record of the key's ingest rate (429 " +
          "with Retry-After beyond it). 422 when `app_id` names no live app the key may write to.",
        security: [{ apiKey: [] }],
        body: IngestHeartbeatSchema,
        response: { 200: HeartbeatAnswerSchema, ...problemResponses(400, 401, 413, 415, 422, 429, 503) },
      },
    },
    async (request) => {
      const principal = principals.get(request);
      if (principal === undefined) throw new Error("ingest route reached without an authenticated key");
      ingest.admit(principal, 1);
      return options.heartbeats.record(principal, request.body);
    },
  );
}

/** The body is checked as an envelope (`{member: [...]}`); the documented record schema is
 *  applied per record by the pipeline, so one bad record cannot reject the batch. */
function envelopeCompiler(member: string): FastifySchemaCompiler<unknown> {
  const envelope = Type.Object({ [member]: Type.Array(Type.Unknown()) }, { additionalProperties: false });
  return (route) => validatorCompiler(route.httpPart === "body" ? { ...route, schema: envelope } : route);
}
