// Graceful close: once the app starts closing, every response still being served tells the
// client to drop its connection, so keep-alive sockets do not hold the shutdown open until
// their idle timeout (Fastify closes only sockets that are idle at the moment close begins).
import type { App } from "./types.js";

export function registerGracefulClose(app: App): void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });
}
