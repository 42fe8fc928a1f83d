// Koa (2 and 3) with @koa/router: a middleware that records every request with the route the
// router matched (`ctx._matchedRoute`, prefixes included) and notes exceptions on their way to
// Koa's own error handling, which it leaves as it is.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Sightline } from "../client.js";
import type { ConsumerInput } from "../capture/exchange.js";
import { type NodeAdapter, observeNodeRequest } from "../capture/node-http.js";
import { toTemplate } from "../capture/route.js";
import { runInScope } from "../context.js";

/** The parts of a Koa context the middleware reads. */
export interface KoaContextLike {
  req: IncomingMessage;
  res: ServerResponse;
  request: { body?: unknown };
  protocol?: string;
  /** Set by @koa/router to the matched layer's path. */
  _matchedRoute?: unknown;
}

export interface KoaAdapterOptions {
  /** Names the consumer when the app did not call `setConsumer(ctx, …)`. Default: the client's option. */
  identifyConsumer?: (ctx: KoaContextLike) => ConsumerInput;
}

/**
 * Records every request of a Koa app. Add it first, before the router.
 *
 * @example
 * const app = new Koa();
 * app.use(sightlineKoa(sightline));
 * router.get("/orders/:id", handler); // recorded as /orders/{id}
 * app.use(router.routes());
 */
export function sightlineKoa(
  sightline: Sightline,
  options: KoaAdapterOptions = {},
): (ctx: KoaContextLike, next: () => Promise<unknown>) => Promise<void> {
  const adapter: NodeAdapter<KoaContextLike> = {
    route: (ctx) => (typeof ctx._matchedRoute === "string" ? toTemplate(ctx._matchedRoute) : undefined),
    body: (ctx) => ctx.request.body,
    // Koa's own reading, under the app's `proxy` setting.
    scheme: (ctx) => ctx.protocol,
    identify: options.identifyConsumer,
  };
  return async function sightline_koa(ctx, next) {
    const exchange = sightline.enabled
      ? observeNodeRequest(sightline, ctx.req, ctx.res, adapter, ctx)
      : undefined;
    if (exchange === undefined) {
      await next();
      return;
    }
    // observeNodeRequest tagged ctx.req, which exchangeOf(ctx) also finds.
    try {
      await runInScope(exchange, next);
    } catch (error) {
      sightline.recordError(exchange, error);
      throw error;
    }
  };
}
