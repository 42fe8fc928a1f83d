// A body on a GET or HEAD is read and thrown away before the route runs. Fastify never reads one,
// and a connection closed (Connection: close, shutdown) with request bytes still unread is reset
// by the kernel, which can destroy the answer before the client reads it. Draining first means
// the answer is written after the request has fully arrived. Bodies beyond the JSON body limit
// are refused (413) rather than drained.
import { AppError } from "../errors.js";
import type { App } from "./types.js";

const BODYLESS_METHODS = new Set(["GET", "HEAD"]);

export function registerBodylessDrain(app: App, maxBytes: number): void {
  app.addHook("onRequest", async (request, reply) => {
    if (!BODYLESS_METHODS.has(request.method)) return;
    const length = request.headers["content-length"];
    const chunked = request.headers["transfer-encoding"] !== undefined;
    if (!chunked && (length === undefined || length === "0")) return;
    const tooLarge = () => {
      // The rest of the body stays unread: the connection cannot be reused.
      reply.header("connection", "close");
      return new AppError(
        "payload_too_large",
        `${request.method} requests take no body; one of up to ${maxBytes} bytes is ignored, a larger one refused.`,
      );
    };
    if (Number(length) > maxBytes) throw tooLarge();
    let total = 0;
    try {
      for await (const chunk of request.raw) {
        total += (chunk as Buffer).length;
        if (total > maxBytes) throw tooLarge();
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError("bad_request", "The request body could not be read to its end.", { cause: error });
    }
  });
}
