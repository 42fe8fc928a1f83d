// Request ids: a caller's X-Request-Id is kept when it is safe to log, otherwise one is
// generated; the id is echoed on every response and carried by every log line and error.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const REQUEST_ID_HEADER = "x-request-id";

// Restricting the alphabet keeps caller-supplied ids from forging log lines or headers.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

export function requestIdFor(request: IncomingMessage): string {
  const supplied = request.headers[REQUEST_ID_HEADER];
  if (typeof supplied === "string" && SAFE_REQUEST_ID.test(supplied)) return supplied;
  return randomUUID();
}
