// Maps anything thrown while handling a request to an RFC 9457 problem: status, body and
// headers. Unknown failures become a bare internal_error: no stack, no SQL, no driver text.
import {
  type ErrorCode,
  errorCatalogue,
  type FieldError,
  type Problem,
  problemType,
} from "@sightline/contracts";
import type { FastifyError } from "fastify";
import { AppError } from "../errors.js";
import { EventsStoreError } from "../stores/events/executor.js";
import { MetadataConflictError } from "../stores/metadata/portable-driver.js";
import { messageOf, pointerOf } from "./validation.js";

export interface ProblemReply {
  readonly status: number;
  readonly body: Problem & Record<string, unknown>;
  readonly headers: Readonly<Record<string, string>>;
  /** True when the failure is ours (5xx): it is logged with its cause. */
  readonly isServerFault: boolean;
}

interface RequestFacts {
  readonly id: string;
  readonly url: string;
}

export function buildProblem(
  code: ErrorCode,
  detail: string,
  request: RequestFacts,
  extras: { errors?: readonly FieldError[]; extensions?: Readonly<Record<string, unknown>> } = {},
): Problem & Record<string, unknown> {
  const entry = errorCatalogue[code];
  return {
    ...extras.extensions,
    type: problemType(code),
    title: entry.title,
    status: entry.status,
    detail,
    instance: request.url.split("?")[0] ?? request.url,
    error: code,
    request_id: request.id,
    ...(extras.errors === undefined ? {} : { errors: [...extras.errors] }),
  };
}

const FASTIFY_CODES: Readonly<Record<string, { code: ErrorCode; detail: string }>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "invalid_json", detail: "The request body is not valid JSON." },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: "invalid_json",
    detail: "The request body is empty but Content-Type says application/json.",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: "payload_too_large",
    detail: "The request body exceeds the size limit.",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: "bad_request",
    detail: "Content-Length does not match the body received.",
  },
  FST_ERR_BAD_URL: { code: "bad_request", detail: "The request URL cannot be decoded." },
};

export function toProblem(error: unknown, request: RequestFacts): ProblemReply {
  const reply = (
    code: ErrorCode,
    detail: string,
    extras: { errors?: readonly FieldError[]; extensions?: Readonly<Record<string, unknown>> } = {},
    headers: Readonly<Record<string, string>> = {},
  ): ProblemReply => ({
    status: errorCatalogue[code].status,
    body: buildProblem(code, detail, request, extras),
    headers,
    isServerFault: errorCatalogue[code].status >= 500,
  });

  if (error instanceof AppError) {
    return reply(
      error.code,
      error.detail,
      {
        ...(error.options.errors === undefined ? {} : { errors: error.options.errors }),
        ...(error.options.extensions === undefined ? {} : { extensions: error.options.extensions }),
      },
      error.options.headers,
    );
  }
  if (error instanceof EventsStoreError && error.kind === "unavailable") {
    return reply(
      "service_unavailable",
      "The events store is unavailable; retry shortly.",
      {},
      { "retry-after": "5" },
    );
  }
  if (error instanceof EventsStoreError && error.kind === "aborted") {
    // The client that asked is gone and will read no reply: not the server's fault, not logged.
    return {
      ...reply("service_unavailable", "The request was cancelled: the client disconnected."),
      isServerFault: false,
    };
  }
  if (error instanceof MetadataConflictError) {
    // A race the service's own check lost (or a value only the store saw as equal): the unique
    // index decided. Column names are ours; the values are never repeated back.
    const fields = error.columns.filter((column) => !column.endsWith("_id"));
    return reply(
      "conflict",
      fields.length === 0
        ? "This conflicts with an existing record."
        : `Another record already has this ${fields.join(" and ")}.`,
    );
  }
  const fastifyError = error as Partial<FastifyError>;
  if (Array.isArray(fastifyError.validation)) {
    const errors = fastifyError.validation.map((issue) => ({
      pointer: pointerOf(issue as never, fastifyError.validationContext),
      message: messageOf(issue as never),
    }));
    return reply("validation_error", summarise(errors), { errors });
  }
  if (fastifyError.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    return reply("unsupported_media_type", "This route does not accept that Content-Type.");
  }
  const known = fastifyError.code === undefined ? undefined : FASTIFY_CODES[fastifyError.code];
  if (known !== undefined) return reply(known.code, known.detail);
  if (fastifyError.statusCode === 413)
    return reply("payload_too_large", "The request body exceeds the size limit.");
  if (fastifyError.statusCode === 415) return reply("unsupported_media_type", "Unsupported Content-Type.");
  if (
    typeof fastifyError.statusCode === "number" &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    return reply("bad_request", "The request cannot be processed as sent.");
  }
  return reply("internal_error", "Something went wrong on our side. Quote the request id when reporting it.");
}

function summarise(errors: readonly FieldError[]): string {
  const shown = errors.slice(0, 3).map((e) => `${e.pointer} ${e.message}`);
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : "";
  return `Invalid request: ${shown.join("; ")}${more}.`;
}
