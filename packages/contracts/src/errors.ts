// The error catalogue: every stable error code Sightline answers with, its HTTP status and
// meaning, and the RFC 9457 problem+json body shape. docs/errors.md documents each code.
import { type Static, Type } from "typebox";

export const errorCatalogue = {
  validation_error: {
    status: 422,
    title: "Validation failed",
    description: "The request was well-formed but a field, parameter or header has an invalid value.",
  },
  invalid_json: {
    status: 400,
    title: "Malformed JSON",
    description: "The request body is not valid JSON.",
  },
  bad_request: {
    status: 400,
    title: "Bad request",
    description: "The request cannot be understood (for example an unreadable or mis-encoded body).",
  },
  authentication_error: {
    status: 401,
    title: "Authentication required",
    description: "Credentials are missing, malformed, unknown, expired or revoked.",
  },
  token_invalid: {
    status: 401,
    title: "Invalid token",
    description: "The token is unknown, already used, or was revoked.",
  },
  token_expired: {
    status: 401,
    title: "Token expired",
    description: "The token was valid once but its lifetime is over.",
  },
  forbidden: {
    status: 403,
    title: "Forbidden",
    description: "The caller is a member of the project but their role does not allow this action.",
  },
  not_found: {
    status: 404,
    title: "Not found",
    description: "No such route, or no such resource visible to the caller.",
  },
  conflict: {
    status: 409,
    title: "Conflict",
    description: "The request conflicts with the current state (for example a slug that is taken).",
  },
  payload_too_large: {
    status: 413,
    title: "Payload too large",
    description: "The body (after decompression) or the number of records exceeds the limit.",
  },
  unsupported_media_type: {
    status: 415,
    title: "Unsupported media type",
    description: "The Content-Type or Content-Encoding of the body is not accepted by this route.",
  },
  rate_limited: {
    status: 429,
    title: "Too many requests",
    description: "Too many requests in a time window; retry after the number of seconds in Retry-After.",
  },
  limit_reached: {
    status: 429,
    title: "Limit reached",
    description: "A resource count limit is reached (for example live API keys per project).",
  },
  internal_error: {
    status: 500,
    title: "Internal error",
    description: "An unexpected failure on the server. The request id identifies it in the server log.",
  },
  service_unavailable: {
    status: 503,
    title: "Service unavailable",
    description: "A store is unavailable or the server is overloaded; retry after Retry-After seconds.",
  },
  headers_too_large: {
    status: 431,
    title: "Request header fields too large",
    description: "The request's headers exceed the server's limit; the connection is closed.",
  },
  request_timeout: {
    status: 408,
    title: "Request timeout",
    description: "The request did not arrive completely in time; the connection is closed.",
  },
  csrf_rejected: {
    status: 403,
    title: "Cross-site request refused",
    description:
      "A state-changing request authenticated by the session cookie lacks a same-origin Origin (or Referer) or the X-Sightline-CSRF header.",
  },
  method_not_allowed: {
    status: 405,
    title: "Method not allowed",
    description:
      "The resource exists but does not answer this HTTP method; the Allow header lists those it does.",
  },
} as const satisfies Record<string, { status: number; title: string; description: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** The `type` member of a problem: a stable URN per code, documented in docs/errors.md. */
export function problemType(code: ErrorCode): string {
  return `urn:sightline:error:${code}`;
}

export const FieldErrorSchema = Type.Object(
  {
    pointer: Type.String({
      description: "JSON Pointer into the body (`/requests/3/status_code`), or `#/query/<name>`.",
      examples: ["/email"],
    }),
    message: Type.String({ examples: ["must be a valid e-mail address"] }),
  },
  { additionalProperties: false },
);
export type FieldError = Static<typeof FieldErrorSchema>;

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ examples: ["urn:sightline:error:validation_error"] }),
    title: Type.String({ examples: ["Validation failed"] }),
    status: Type.Integer({ examples: [422] }),
    detail: Type.String({ examples: ['body/email must match format "email"'] }),
    instance: Type.String({ description: "The request path.", examples: ["/api/v1/auth/magic-link"] }),
    error: Type.String({ description: "Stable snake_case error code.", examples: ["validation_error"] }),
    request_id: Type.String({ examples: ["req-5f0c2a"] }),
    errors: Type.Optional(Type.Array(FieldErrorSchema)),
  },
  {
    $id: "Problem",
    title: "Problem",
    description: "RFC 9457 problem details; routes may add extension members (e.g. `checks`).",
    additionalProperties: true,
  },
);
export type Problem = Static<typeof ProblemSchema>;
