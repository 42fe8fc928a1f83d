// A Hono app instrumented with the SDK, served two ways: by @hono/node-server (the node:http
// path) and as a web-standard fetch handler behind a minimal Request/Response bridge, the way
// Bun, Deno or Workers call `app.fetch` (the fetch path, with the runtime's client address).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { sightlineHono } from "../src/adapters/hono.js";
import { setConsumer, type Sightline } from "../src/index.js";
import { adapterSuite, consumerOf, CREATED } from "./support/scenario.js";
import { listen } from "./support/sightline.js";

type Env = { Bindings: { remoteAddress?: string } };

function buildApp(sightline: Sightline) {
  const app = new Hono<Env>();
  app.use(
    sightlineHono(sightline, {
      clientAddress: (c) => (c.env as { remoteAddress?: string } | undefined)?.remoteAddress,
    }),
  );
  app.use(async (c, next) => {
    setConsumer(c, consumerOf(c.req.header("x-customer")));
    await next();
  });
  app.get("/orders/:id", (c) => c.json({ id: c.req.param("id") }));
  app.post("/orders", async (c) => {
    await c.req.json();
    return c.json(CREATED, 201);
  });
  app.get("/boom", () => {
    throw new Error("kaboom");
  });
  const nested = new Hono<Env>();
  nested.get("/items/:itemId", (c) => c.json({ item: c.req.param("itemId") }));
  app.route("/nested/:tenant", nested);
  return app;
}

adapterSuite("Hono on @hono/node-server", {
  start: async (sightline) => {
    const server = serve({ fetch: buildApp(sightline).fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  },
});

/** What a fetch runtime does: build a Request, call the handler, write its Response. */
function fetchBridge(
  handler: (request: Request, env: { remoteAddress?: string }) => Response | Promise<Response>,
) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string") headers.set(name, value);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body,
    });
    const response = await handler(request, { remoteAddress: req.socket.remoteAddress });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  };
}

adapterSuite("Hono as a web-standard fetch handler", {
  start: (sightline) => {
    const app = buildApp(sightline);
    return listen(createServer(fetchBridge((request, env) => app.fetch(request, env))));
  },
});
