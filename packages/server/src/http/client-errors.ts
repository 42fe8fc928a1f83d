// Answers to requests that never became requests: bytes that are not HTTP, headers over the
// size limit, a request that timed out before it arrived whole. Node's HTTP parser gives up on
// them before Fastify sees anything, so they are written to the socket here, still as problem+json
// with a request id, and the connection is closed (its framing can no longer be trusted).
import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import type { ErrorCode } from "@sightline/contracts";
import type { Logger } from "pino";
import { buildProblem } from "./problem.js";
import { SECURITY_HEADERS } from "./security-headers.js";

interface ClientError extends Error {
  readonly code?: string;
}

function classify(error: ClientError): { code: ErrorCode; status: number; reason: string; detail: string } {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return {
      code: "headers_too_large",
      status: 431,
      reason: "Request Header Fields Too Large",
      detail: "The request's headers exceed the server's limit.",
    };
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return {
      code: "request_timeout",
      status: 408,
      reason: "Request Timeout",
      detail: "The request did not arrive completely in time.",
    };
  }
  return {
    code: "bad_request",
    status: 400,
    reason: "Bad Request",
    detail: "The request is not valid HTTP/1.1.",
  };
}

/** Fastify's `clientErrorHandler`: one problem+json answer, then the connection is closed. */
export function createClientErrorHandler(logger: Logger): (error: ClientError, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has nobody left to answer.
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const requestId = randomUUID();
    const { code, status, reason, detail } = classify(error);
    logger.debug({ request_id: requestId, code: error.code }, "client error");
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(buildProblem(code, detail, { id: requestId, url: "/" }));
    const headers = [
      `HTTP/1.1 ${status} ${reason}`,
      "Content-Type: application/problem+json; charset=utf-8",
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
      "Connection: close",
    ];
    // end() flushes the answer before closing; destroy() once it is out frees the socket even if
    // the client never closes its side.
    socket.end(`${headers.join("\r\n")}\r\n\r\n${body}`, () => socket.destroy());
  };
}
