// Routes of the opentelemetry tag: the OTLP/HTTP receivers POST /otlp/v1/traces and
// /otlp/v1/logs, so `OTEL_EXPORTER_OTLP_ENDPOINT=<sightline>/api/v1/otlp` works as it is. This
// plugin context reads bodies itself (protobuf or JSON, gzip/deflate, INGEST_MAX_BODY) and
// answers in the request's encoding, as OTLP/HTTP requires.
import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from "fastify";
import type { Readable } from "node:stream";
import { Type } from "typebox";
import { AppError } from "../../errors.js";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { vetBinaryBody } from "../../http/well-formed.js";
import { access } from "../access/index.js";
import { type KeyPrincipal, readBody } from "../ingest/index.js";
import { encodeAnswer, type Signal } from "./otlp.decode.js";
import { OTLP_LIMITS } from "./otlp.limits.js";
import type { OtlpEncoding } from "./otlp.model.js";
import type { ExportOutcome, OtlpPayload, OtlpService } from "./otlp.service.js";

export interface OtlpRoutesOptions {
  readonly otlp: OtlpService;
  /** INGEST_MAX_BODY: bytes after decompression. */
  readonly maxBodyBytes: number;
  /** INGEST_MAX_BATCH, for the documentation. */
  readonly maxBatch: number;
}

const CONTENT_TYPES: Readonly<Record<OtlpEncoding, string>> = {
  protobuf: "application/x-protobuf",
  json: "application/json",
};

const PartialSuccess = (counter: string, example: number) =>
  Type.Object(
    {
      partialSuccess: Type.Optional(
        Type.Object({
          [counter]: Type.Integer({ minimum: 0, description: "Items not stored.", examples: [example] }),
          errorMessage: Type.String({
            description: "Why, in a sentence per reason (the first five; counts are complete).",
            examples: ['service.name "billing" names no app of project "shop"; …'],
          }),
        }),
      ),
    },
    {
      description:
        "An ExportTraceServiceResponse / ExportLogsServiceResponse: `{}` when everything was stored, " +
        "else `partialSuccess`. Protobuf requests get it protobuf-encoded.",
    },
  );

const problems = problemResponses(400, 401, 413, 415, 429, 503);

/** OTLP_LIMITS as the route descriptions list them. */
const limitsText = Object.entries(OTLP_LIMITS)
  .map(([name, value]) => `\`${name}\` ${value}`)
  .join(", ");

export async function otlpRoutes(app: App, options: OtlpRoutesOptions): Promise<void> {
  const { otlp } = options;
  const principals = new WeakMap<FastifyRequest, KeyPrincipal>();

  app.removeAllContentTypeParsers();
  for (const encoding of ["protobuf", "json"] as const) {
    app.addContentTypeParser(CONTENT_TYPES[encoding], async (request: FastifyRequest, payload: Readable) => {
      const declared = Number(request.headers["content-length"]);
      if (Number.isFinite(declared) && declared > options.maxBodyBytes) {
        throw new AppError(
          "payload_too_large",
          `The body exceeds ${options.maxBodyBytes} bytes (INGEST_MAX_BODY). Nothing was stored.`,
        );
      }
      const coding = request.headers["content-encoding"]?.trim().toLowerCase();
      const bytes = await readBody(payload, coding, options.maxBodyBytes);
      // The service decodes and makes its strings well-formed; the bytes are not to be walked.
      vetBinaryBody(request);
      return { bytes, encoding } satisfies OtlpPayload;
    });
  }

  // Before the body is read: an unauthenticated client costs no parsing or decompression.
  app.addHook("onRequest", async (request) => {
    const header = request.headers["x-api-key"];
    const principal = await otlp.authenticate(Array.isArray(header) ? header[0] : header);
    await otlp.screen(principal);
    principals.set(request, principal);
  });

  /** The body as parsed; a request without one (no content type, or no bytes) is an empty
   *  export in a declared encoding, and a 415 without one. */
  const payloadOf = (request: FastifyRequest): OtlpPayload => {
    if (request.body !== undefined && request.body !== null) return request.body as OtlpPayload;
    const type = request.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() ?? "";
    const encoding = (Object.keys(CONTENT_TYPES) as OtlpEncoding[]).find(
      (name) => CONTENT_TYPES[name] === type,
    );
    if (encoding === undefined) {
      throw new AppError(
        "unsupported_media_type",
        "Send the export request as application/x-protobuf or application/json.",
      );
    }
    return { bytes: Buffer.alloc(0), encoding };
  };
  const principalOf = (request: FastifyRequest): KeyPrincipal => {
    const principal = principals.get(request);
    if (principal === undefined) throw new Error("OTLP route reached without an authenticated key");
    return principal;
  };
  const answer = (reply: FastifyReply, signal: Signal, payload: OtlpPayload, outcome: ExportOutcome) =>
    reply
      .type(CONTENT_TYPES[payload.encoding])
      .send(encodeAnswer(signal, payload.encoding, outcome.rejected, outcome.errorMessage));

  const description = (items: string, mapping: string) =>
    `The OTLP/HTTP receiver for ${items}: point an OpenTelemetry SDK or Collector at it with ` +
    "`OTEL_EXPORTER_OTLP_ENDPOINT=<sightline>/api/v1/otlp` and `OTEL_EXPORTER_OTLP_HEADERS=x-api-key=<key>`. " +
    "Body: an OTLP export request, `application/x-protobuf` or `application/json` (OTLP/JSON), optionally " +
    `\`Content-Encoding: gzip\` or \`deflate\`, at most ${options.maxBodyBytes} bytes after decompression ` +
    "(INGEST_MAX_BODY). Each resource's `service.name` must be the slug (or id) of an app the key may write " +
    "to (an app key: its own app, also when `service.name` is unset); `deployment.environment.name` (or " +
    "`deployment.environment`) is the environment, `production` when absent. " +
    `${mapping} Items that cannot be stored are counted in \`partialSuccess\` with the reasons; an export ` +
    `larger than ${options.maxBatch} records (INGEST_MAX_BATCH) is stored in several inserts. 400: the body ` +
    "is not an export request (do not retry); 413: the body is too large, or the export holds more than a " +
    `cap allows (problem member \`limit\` names it): ${limitsText} (nothing is stored); 429 with Retry-After: ` +
    "the project or key is over its ingest rate or share (INGEST_PROJECT_RATE, INGEST_KEY_RATE, " +
    "INGEST_PROJECT_PENDING_SHARE), retry later; 503 with Retry-After: the server is at capacity, retry " +
    "(see the README on trace exports).";

  const bodyDoc = (member: string) => ({
    content: {
      "application/json": {
        schema: Type.Object(
          { [member]: Type.Optional(Type.Array(Type.Unknown())) },
          { description: "An OTLP/JSON export request (lowerCamelCase fields, hex trace and span ids)." },
        ),
      },
      "application/x-protobuf": {
        schema: Type.String({ format: "binary", description: "A protobuf-encoded OTLP export request." }),
      },
    },
  });
  const answerDoc = (counter: string) => ({
    200: {
      description: "Stored (maybe partly: see `partialSuccess`).",
      content: {
        "application/json": { schema: PartialSuccess(counter, 2) },
        "application/x-protobuf": { schema: Type.String({ format: "binary" }) },
      },
    },
    ...problems,
  });

  app.post(
    "/otlp/v1/traces",
    {
      config: { access: access.apiKey, contentEncodings: ["gzip", "x-gzip", "deflate"] },
      schema: {
        operationId: "otlpExportTraces",
        tags: ["opentelemetry"],
        summary: "Receive OTLP traces (OTLP/HTTP)",
        description: description(
          "traces",
          "Every span is stored as a span (`SPANS_RETENTION_DAYS`). Every SERVER span with an HTTP method " +
            "and response status code (`http.request.method`, " +
            "`http.response.status_code`, `url.path`, `url.query`, `http.route`, `client.address`, " +
            "`user_agent.original`, body sizes; or the older `http.method`, `http.status_code`, `http.target`, " +
            "`http.url`, `net.peer.ip`, `http.user_agent`) also becomes a request record, `http.route` its " +
            "route template; a span kept whose request record is refused is a warning in `errorMessage`.",
        ),
        security: [{ apiKey: [] }],
        body: bodyDoc("resourceSpans"),
        response: answerDoc("rejectedSpans"),
      },
      validatorCompiler: decodedByService,
    },
    async (request, reply) => {
      const payload = payloadOf(request);
      return answer(reply, "traces", payload, await otlp.exportTraces(principalOf(request), payload));
    },
  );

  app.post(
    "/otlp/v1/logs",
    {
      config: { access: access.apiKey, contentEncodings: ["gzip", "x-gzip", "deflate"] },
      schema: {
        operationId: "otlpExportLogs",
        tags: ["opentelemetry"],
        summary: "Receive OTLP logs (OTLP/HTTP)",
        description: description(
          "log records",
          "Each log record becomes a log record: severity number (or text) as its level, the body as its " +
            "message (structured bodies as JSON), the instrumentation scope as its logger, its attributes, " +
            "trace and span ids.",
        ),
        security: [{ apiKey: [] }],
        body: bodyDoc("resourceLogs"),
        response: answerDoc("rejectedLogRecords"),
      },
      validatorCompiler: decodedByService,
    },
    async (request, reply) => {
      const payload = payloadOf(request);
      return answer(reply, "logs", payload, await otlp.exportLogs(principalOf(request), payload));
    },
  );
}

/** The body schema documents the wire format; the service decodes and checks the body itself
 *  (a malformed export request is a 400 there). Headers, query and params have none. */
const decodedByService: FastifySchemaCompiler<unknown> = () => () => true;
