// Hono: one middleware for both ways Hono runs. On Node (@hono/node-server) it records from the
// node:http response like the other adapters; as a web-standard fetch handler (Bun, Deno,
// Workers, or any runtime calling `app.fetch`) it records from the Request and the Response.
// The route is the last route Hono matched for the request (`/posts/:id` -> `/posts/{id}`).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Sightline } from "../client.js";
import type { ConsumerInput } from "../capture/exchange.js";
import { observeFetchExchange } from "../capture/fetch.js";
import { type NodeAdapter, observeNodeRequest, readNodeHeader } from "../capture/node-http.js";
import { toTemplate } from "../capture/route.js";
import { runInScope } from "../context.js";

interface MatchedRoute {
  method: string;
  path: string;
}

/** The parts of a Hono context the middleware reads. */
export interface HonoContextLike {
  req: {
    raw: Request;
    matchedRoutes?: MatchedRoute[];
    routeIndex?: number;
    bodyCache?: { json?: unknown; text?: unknown };
  };
  env: unknown;
  res: Response;
  error?: Error | undefined;
}

export interface HonoAdapterOptions {
  /** Names the consumer when the app did not call `setConsumer(c, …)`. Default: the client's option. */
  identifyConsumer?: (c: HonoContextLike) => ConsumerInput;
  /**
   * The client address where the runtime is not node:http (e.g. `c.env.remoteAddr` or a
   * CF-Connecting-IP header). Default: none on fetch runtimes; the socket address on Node.
   */
  clientAddress?: (c: HonoContextLike) => string | undefined;
}

/**
 * Records every request of a Hono app, on Node or any fetch runtime.
 *
 * @example
 * const app = new Hono();
 * app.use(sightlineHono(sightline));
 * app.get("/posts/:id", (c) => c.json({ id: c.req.param("id") })); // recorded as /posts/{id}
 * serve({ fetch: app.fetch, port: 3000 });                          // or: export default app
 */
export function sightlineHono(
  sightline: Sightline,
  options: HonoAdapterOptions = {},
): (c: HonoContextLike, next: () => Promise<void>) => Promise<void> {
  const identify = options.identifyConsumer as ((request: unknown) => ConsumerInput) | undefined;
  const adapter: NodeAdapter<HonoContextLike> = {
    route: honoRoute,
    // Hono keeps what its error handler answered for; it is set by the time the response closed.
    error: (c) => c.error,
    identify: options.identifyConsumer,
  };
  // Not an async function on Node: the request's own promise is handed back, so recording adds
  // no promise and no await of its own (the route, the error and the rest are read at 'close').
  return function sightline_hono(c, next) {
    if (!sightline.enabled) return next();
    if (isNodeHttp(c.env)) {
      // setConsumer(c) finds the exchange through c.env.incoming (see exchangeOf).
      const exchange = observeNodeRequest(sightline, c.env.incoming, c.env.outgoing, adapter, c);
      if (exchange === undefined) return next();
      const handled = runInScope(exchange, next);
      // Hono keeps the body the handler read as a promise; it has settled by the time next() has.
      if (!sightline.options.captureBodies) return handled;
      return handled.then(async () => {
        exchange.parsedBody = await settledBody(c);
      });
    }
    return recordFetch(c, next);
  };

  async function recordFetch(c: HonoContextLike, next: () => Promise<void>): Promise<void> {
    const response = await observeFetchExchange(sightline, c.req.raw, {
      remoteAddress: options.clientAddress?.(c),
      request: c,
      identify,
      tagAlso: c,
      handle: async () => {
        await next();
        return c.res;
      },
      afterHandle: (exchange) => {
        if (c.error !== undefined) sightline.recordError(exchange, c.error);
        exchange.route = honoRoute(c);
      },
    });
    if (response !== c.res) c.res = response;
  }
}

async function settledBody(c: HonoContextLike): Promise<unknown> {
  const cache = c.req.bodyCache;
  const cached = cache?.json ?? cache?.text;
  try {
    return await cached;
  } catch {
    return undefined;
  }
}

/** The route that answered: the last one matched, unless only middleware matched (404). */
function honoRoute(c: HonoContextLike): string | undefined {
  let routes: MatchedRoute[] | undefined;
  try {
    routes = c.req.matchedRoutes;
  } catch {
    return undefined;
  }
  const last = routes?.at(-1);
  if (last === undefined) return undefined;
  if (last.method === "ALL" && last.path.endsWith("*")) return undefined;
  return toTemplate(last.path);
}

/** @hono/node-server's bindings (no object built per request: this runs for every request). */
function isNodeHttp(env: unknown): env is { incoming: IncomingMessage; outgoing: ServerResponse } {
  if (env === null || typeof env !== "object") return false;
  const { incoming, outgoing } = env as { incoming?: IncomingMessage; outgoing?: ServerResponse };
  // An HTTP/2 stream or anything else without node:http's response events is handled as fetch.
  if (incoming === undefined || outgoing === undefined || typeof outgoing.getHeader !== "function")
    return false;
  return incoming.headers !== undefined && readNodeHeader(incoming.headers, ":method") === undefined;
}
