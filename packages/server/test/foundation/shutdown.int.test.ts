// Graceful close of a listening server: in-flight requests finish, new ones are refused,
// then the stores close.
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";

describe("graceful shutdown", () => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx.close();
  });

  it("finishes an in-flight request before closing the stores", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    ctx = await createTestContext({
      extend: (app) => {
        app.get(
          "/api/v1/__slow",
          { schema: { response: { 200: Type.Object({ metadata: Type.String() }) } } },
          async () => {
            entered();
            await gate;
            // The store must still be open while the request runs.
            await ctx.deps.metadata.ping();
            return { metadata: "ok" };
          },
        );
      },
    });
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const address = ctx.app.server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;

    const inflight = fetch(`http://127.0.0.1:${port}/api/v1/__slow`);
    await inside;
    const stopping = ctx.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/health`)).rejects.toThrow();
    release();
    const response = await inflight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ metadata: "ok" });
    await stopping;
    await expect(ctx.deps.metadata.ping()).rejects.toThrow();
  });
});
