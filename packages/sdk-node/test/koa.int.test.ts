// A Koa app with @koa/router instrumented with the SDK: the shared adapter suite, with the
// nested route on a router whose prefix has a parameter.
import { createServer } from "node:http";
import Router from "@koa/router";
import Koa from "koa";
import { sightlineKoa } from "../src/adapters/koa.js";
import { setConsumer, type Sightline } from "../src/index.js";
import { adapterSuite, consumerOf, CREATED } from "./support/scenario.js";
import { listen } from "./support/sightline.js";

function buildApp(sightline: Sightline) {
  const app = new Koa();
  // Koa's default error handler prints to stderr; the suite checks what Sightline got instead.
  app.silent = true;
  app.use(sightlineKoa(sightline));
  // A JSON body parser in a few lines (koa-bodyparser's job), so the request body can be captured.
  app.use(async (ctx, next) => {
    if (ctx.is("application/json")) {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      (ctx.request as { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    }
    setConsumer(ctx, consumerOf(ctx.get("x-customer")));
    await next();
  });
  const router = new Router();
  router.get("/orders/:id", (ctx) => {
    ctx.body = { id: ctx.params.id };
  });
  router.post("/orders", (ctx) => {
    ctx.status = 201;
    ctx.body = CREATED;
  });
  router.get("/boom", () => {
    throw new Error("kaboom");
  });
  const nested = new Router({ prefix: "/nested/:tenant" });
  nested.get("/items/:itemId", (ctx) => {
    ctx.body = { item: ctx.params.itemId };
  });
  app.use(router.routes());
  app.use(nested.routes());
  return app;
}

adapterSuite("Koa with @koa/router", {
  start: async (sightline) => listen(createServer(buildApp(sightline).callback())),
});
