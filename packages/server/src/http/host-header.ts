// HTTP/1.1 requires a Host header (RFC 9112 §3.2). Node's own check answers a bare 400 with no
// body before Fastify sees the request, so it is turned off (`http.requireHostHeader: false` in
// app.ts) and the rule is enforced here instead: the same 400, as problem+json with a request id.
// HTTP/1.0 may omit Host and is served.
import { AppError } from "../errors.js";
import type { App } from "./types.js";

export function registerHostRequired(app: App): void {
  app.addHook("onRequest", async (request) => {
    if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
      throw new AppError("bad_request", "An HTTP/1.1 request must carry a Host header.");
    }
  });
}
