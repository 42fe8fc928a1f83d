// Cancels an API read's work when its client disconnects before the reply is sent: a dashboard
// closed mid-load must not leave its ClickHouse reads running. The events driver reads the signal.
import { runWithRequestSignal } from "../lib/request-signal.js";
import type { App } from "./types.js";

export function registerClientDisconnect(app: App): void {
  app.addHook("onRequest", (request, reply, done) => {
    // Reads only: a write's work (an ingest batch, its idempotency probe, which a resend of the
    // same batch may be waiting on) is finished whether or not its client stays to hear.
    if (request.method !== "GET" && request.method !== "HEAD") {
      done();
      return;
    }
    const controller = new AbortController();
    // 'close' on the response comes both after a full reply and when the socket goes first;
    // only the latter leaves the response unfinished.
    reply.raw.once("close", () => {
      if (!reply.raw.writableFinished) controller.abort(new Error("client disconnected"));
    });
    runWithRequestSignal(controller.signal, done);
  });
}
