// What an exception sends, for error grouping to fingerprint (type, message, top frames): an
// Error keeps its own stack; a thrown non-Error gets no stack made up inside the SDK.
import { createServer } from "node:http";
import express from "express";
import { describe, expect, it } from "vitest";
import { sightlineErrorHandler, sightlineMiddleware } from "../src/adapters/express.js";
import { createSightline } from "../src/index.js";
import { listen } from "./support/sightline.js";
import { startSink } from "./support/sink.js";

function throwsDeep(): never {
  throw new TypeError("cannot read order 17");
}

describe("exceptions sent as error logs", () => {
  it("keep the thrown Error's stack, and send no stack for a thrown string", async () => {
    const sink = await startSink();
    const sdk = createSightline({ apiKey: "sl_test", app: "checkout", url: sink.url, heartbeat: false });
    const app = express();
    app.use(sightlineMiddleware(sdk));
    app.get("/error", () => throwsDeep());
    app.get("/string", () => {
      throw "plain string";
    });
    app.use(sightlineErrorHandler(sdk));
    app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).end();
    });
    const served = await listen(createServer(app));
    await fetch(`${served.url}/error`);
    await fetch(`${served.url}/string`);
    await served.close();
    await sdk.close();
    await sink.close();
    const byPath = Object.fromEntries(sink.logs.map((log) => [log.endpoint_path, log]));
    expect(byPath["/error"]).toMatchObject({
      level: "ERROR",
      message: "TypeError: cannot read order 17",
      attributes: { error_type: "TypeError" },
    });
    const stack = String(byPath["/error"]?.payload);
    expect(stack.split("\n")[0]).toBe("TypeError: cannot read order 17");
    expect(stack.split("\n")[1]).toMatch(/^\s+at throwsDeep \(.*errors\.int\.test\.ts:\d+:\d+\)$/);
    expect(byPath["/string"]).toMatchObject({
      message: "NonError: plain string",
      attributes: { error_type: "NonError" },
    });
    expect(byPath["/string"]).not.toHaveProperty("payload");
  });
});
