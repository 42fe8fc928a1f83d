// Graceful close: once the app starts closing, requests still arriving on open connections are
// refused with a problem (503 + Retry-After, so a load balancer retries elsewhere), and every
// response still being served tells the client to drop its connection, so keep-alive sockets do
// not hold the shutdown open until their idle timeout (Fastify closes only sockets that are idle
// at the moment close begins). This replaces Fastify's return503OnClosing, whose answer is not
// problem+json.
import { AppError } from "../errors.js";
import type { App } from "./types.js";

export function registerGracefulClose(app: App): void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", async () => {
    if (closing) {
      throw new AppError("service_unavailable", "The server is shutting down; retry shortly.", {
        headers: { "retry-after": "1" },
      });
    }
  });
  app.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });
}
