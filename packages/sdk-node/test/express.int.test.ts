// Express 4 and 5 apps instrumented with the SDK: the shared adapter suite, with the nested
// route served by a router mounted at a path with a parameter.
import { createServer } from "node:http";
import express5 from "express";
import express4 from "express4";
import { sightlineErrorHandler, sightlineMiddleware } from "../src/adapters/express.js";
import { describe, expect, it } from "vitest";
import { createSightline, setConsumer, type Sightline } from "../src/index.js";
import { adapterSuite, consumerOf, CREATED } from "./support/scenario.js";
import { listen } from "./support/sightline.js";
import { startSink } from "./support/sink.js";

type ExpressFactory = typeof express5;

function buildApp(express: ExpressFactory, sightline: Sightline) {
  const app = express();
  app.use(sightlineMiddleware(sightline));
  app.use(express.json());
  app.use((req, _res, next) => {
    setConsumer(req, consumerOf(req.headers["x-customer"]));
    next();
  });
  app.get("/orders/:id", (req, res) => {
    res.json({ id: req.params.id });
  });
  app.post("/orders", (_req, res) => {
    res.status(201).json(CREATED);
  });
  app.get("/boom", () => {
    throw new Error("kaboom");
  });
  const items = express.Router({ mergeParams: true });
  items.get("/items/:itemId", (req, res) => {
    res.json({ item: req.params.itemId });
  });
  app.use("/nested/:tenant", items);
  app.use(sightlineErrorHandler(sightline));
  // The app's own error handler still decides the answer.
  app.use((_error: unknown, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => {
    res.status(500).json({ error: "internal" });
  });
  return app;
}

describe("the Express middleware mounted below a path", () => {
  it("records the whole path and the whole route", async () => {
    const sink = await startSink();
    const sdk = createSightline({ apiKey: "sl_test", app: "checkout", url: sink.url });
    const app = express5();
    const api = express5.Router();
    api.get("/orders/:id", (req, res) => {
      res.json({ id: req.params.id });
    });
    app.use("/api", sightlineMiddleware(sdk), api);
    const served = await listen(createServer(app));
    await (await fetch(`${served.url}/api/orders/7`)).text();
    await served.close();
    await sdk.close();
    await sink.close();
    expect(sink.requests).toMatchObject([{ path: "/api/orders/7", route: "/api/orders/{id}" }]);
  });
});

for (const [name, express] of [
  ["Express 5", express5],
  ["Express 4", express4 as unknown as ExpressFactory],
] as const) {
  adapterSuite(name, {
    start: (sightline) => listen(createServer(buildApp(express, sightline))),
  });
}
