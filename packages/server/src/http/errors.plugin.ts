// One error handler for the whole API: every non-2xx answer is application/problem+json
// with the request id, including unknown routes and framework-level failures.
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { buildProblem, toProblem } from "./problem.js";
import { REQUEST_ID_HEADER } from "./request-id.js";
import { SECURITY_HEADERS } from "./security-headers.js";
import type { App } from "./types.js";

export const PROBLEM_CONTENT_TYPE = "application/problem+json; charset=utf-8";

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const problem = toProblem(error, request);
  if (problem.isServerFault) {
    request.log.error({ err: error }, "request failed");
  }
  // Headers set here, not only by hooks: framework errors (an undecodable URL) skip onSend.
  return reply
    .code(problem.status)
    .headers({ ...problem.headers, ...SECURITY_HEADERS, [REQUEST_ID_HEADER]: request.id })
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problem.body));
}

export const errorsPlugin = fp(
  async (app: App) => {
    app.setErrorHandler((error, request, reply) => sendProblem(request, reply, error));
    app.setNotFoundHandler((request, reply) => {
      const body = buildProblem(
        "not_found",
        `No route ${request.method} ${request.url.split("?")[0]}.`,
        request,
      );
      return reply
        .code(404)
        .headers({ ...SECURITY_HEADERS, [REQUEST_ID_HEADER]: request.id })
        .type(PROBLEM_CONTENT_TYPE)
        .send(JSON.stringify(body));
    });
  },
  { name: "sightline-errors" },
);
