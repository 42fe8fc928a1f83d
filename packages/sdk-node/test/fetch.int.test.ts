// The fetch-handler path without body capture (Hono's `app.fetch`, as Bun, Deno or Workers call
// it): a response without Content-Length is measured as its body streams out, the record is
// closed at the last byte, and a body the client abandons is recorded as 499.
import { Hono } from "hono";
import { stream } from "hono/streaming";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sightlineHono } from "../src/adapters/hono.js";
import { createSightline, type Sightline } from "../src/index.js";
import { type Sink, startSink } from "./support/sink.js";

describe("Hono's fetch form without body capture", () => {
  let sink: Sink;
  let sdk: Sightline;
  let app: Hono;

  beforeAll(async () => {
    sink = await startSink();
    sdk = createSightline({
      apiKey: "sl_test",
      app: "checkout",
      url: sink.url,
      batchSize: 500,
      flushIntervalMs: 60_000,
    });
    app = new Hono();
    app.use(sightlineHono(sdk));
    app.get("/report/:id", (c) =>
      stream(c, async (out) => {
        for (let i = 0; i < 4; i += 1) await out.write("x".repeat(1000));
      }),
    );
  });
  afterAll(async () => {
    await sdk.close();
    await sink.close();
  });

  it("counts a streamed body's bytes and closes the record at the last one", async () => {
    const response = await app.fetch(new Request("http://app.test/report/1"));
    expect(response.headers.get("content-length")).toBeNull();
    expect(sdk.stats().requests.queued).toBe(0);
    expect((await response.text()).length).toBe(4000);
    const cancelled = await app.fetch(new Request("http://app.test/report/2"));
    const reader = (cancelled.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    await sdk.close();
    const byPath = Object.fromEntries(sink.requests.map((r) => [r.path, r]));
    expect(byPath["/report/1"]).toMatchObject({
      route: "/report/{id}",
      status_code: 200,
      response_size: 4000,
    });
    expect(byPath["/report/2"]).toMatchObject({ route: "/report/{id}", status_code: 499 });
  });
});
