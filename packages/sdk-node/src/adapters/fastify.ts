// Fastify 4 and 5: a plugin whose hooks apply to the whole app (like fastify-plugin, without
// depending on it). The route is the one Fastify matched (`routeOptions.url`, `routerPath` on
// Fastify < 4.10); errors are noted in onError, which leaves Fastify's error handling alone.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Sightline } from "../client.js";
import type { ConsumerInput } from "../capture/exchange.js";
import { type NodeAdapter, observeNodeRequest } from "../capture/node-http.js";
import { toTemplate } from "../capture/route.js";
import { exchangeOf, runInScope } from "../context.js";

/** The parts of a Fastify request the plugin reads (Fastify 4 and 5 alike). */
export interface FastifyRequestLike {
  raw: IncomingMessage;
  body?: unknown;
  routeOptions?: { url?: string };
  routerPath?: string;
  protocol?: string;
}

export interface FastifyReplyLike {
  raw: ServerResponse;
}

type Done = (error?: Error) => void;

/** The parts of a Fastify instance the plugin uses. */
export interface FastifyLike {
  addHook(
    name: "onRequest",
    hook: (request: FastifyRequestLike, reply: FastifyReplyLike, done: Done) => void,
  ): unknown;
  addHook(
    name: "onError",
    hook: (request: FastifyRequestLike, reply: FastifyReplyLike, error: Error, done: Done) => void,
  ): unknown;
}

export interface FastifyAdapterOptions {
  /** Names the consumer when the app did not call `setConsumer(request, …)`. Default: the client's option. */
  identifyConsumer?: (request: FastifyRequestLike) => ConsumerInput;
}

export type SightlineFastifyPlugin = ((instance: FastifyLike, options: unknown, done: Done) => void) & {
  [key: symbol]: unknown;
};

/**
 * A Fastify plugin recording every request of the app it is registered on.
 *
 * @example
 * const app = Fastify();
 * await app.register(sightlinePlugin(sightline));
 * app.get("/orders/:id", handler); // recorded as /orders/{id}
 */
export function sightlinePlugin(
  sightline: Sightline,
  options: FastifyAdapterOptions = {},
): SightlineFastifyPlugin {
  const adapter: NodeAdapter<FastifyRequestLike> = {
    route: (request) => toTemplate(request.routeOptions?.url ?? request.routerPath),
    body: (request) => request.body,
    // Fastify's own reading, under its trustProxy option.
    scheme: (request) => request.protocol,
    identify: options.identifyConsumer,
  };
  const register = (instance: FastifyLike, _options: unknown, done: Done) => {
    instance.addHook("onRequest", (request, reply, next) => {
      const exchange = sightline.enabled
        ? observeNodeRequest(sightline, request.raw, reply.raw, adapter, request)
        : undefined;
      // observeNodeRequest tagged request.raw, which exchangeOf(request) also finds.
      if (exchange === undefined) next();
      else runInScope(exchange, next);
    });
    instance.addHook("onError", (request, _reply, error, next) => {
      sightline.recordError(exchangeOf(request), error);
      next();
    });
    done();
  };
  // What fastify-plugin sets: the hooks reach every route of the app, not just this plugin's scope.
  return Object.assign(register, {
    [Symbol.for("skip-override")]: true,
    [Symbol.for("fastify.display-name")]: "@sightline/node",
  });
}
