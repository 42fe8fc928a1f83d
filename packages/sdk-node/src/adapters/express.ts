// Express 4 and 5: a middleware that records every request with the route Express matched
// (`req.baseUrl` mounts and `req.route.path`, read after routing), and an error middleware
// that notes the exception and passes it on untouched.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Sightline } from "../client.js";
import type { ConsumerInput } from "../capture/exchange.js";
import { type NodeAdapter, observeNodeRequest } from "../capture/node-http.js";
import { toTemplate } from "../capture/route.js";
import { exchangeOf, runInScope } from "../context.js";

/** The parts of an Express request the adapter reads (Express 4 and 5 alike). */
export interface ExpressRequest extends IncomingMessage {
  route?: { path?: unknown };
  baseUrl?: string;
  app?: unknown;
  body?: unknown;
  protocol?: string;
}

export type ExpressNext = (error?: unknown) => void;

export interface ExpressAdapterOptions {
  /** Names the consumer when the app did not call `setConsumer(req, …)`. Default: the client's option. */
  identifyConsumer?: (req: ExpressRequest) => ConsumerInput;
}

/**
 * Records every request of an Express 4 or 5 app. Add it before your routes.
 *
 * @example
 * const app = express();
 * app.use(sightlineMiddleware(sightline));
 * app.get("/orders/:id", handler);           // recorded as /orders/{id}
 * app.use(sightlineErrorHandler(sightline)); // after routes: error logs with stack traces
 */
export function sightlineMiddleware(
  sightline: Sightline,
  options: ExpressAdapterOptions = {},
): (req: ExpressRequest, res: ServerResponse, next: ExpressNext) => void {
  const adapter: NodeAdapter<ExpressRequest> = {
    route: expressRoute,
    body: (req) => req.body,
    // Express's own reading, under the app's "trust proxy" setting.
    scheme: (req) => req.protocol,
    validation: expressValidatorErrors,
    identify: options.identifyConsumer,
  };
  return function sightline_express(req, res, next) {
    const exchange = sightline.enabled ? observeNodeRequest(sightline, req, res, adapter, req) : undefined;
    if (exchange === undefined) next();
    else runInScope(exchange, next);
  };
}

/**
 * Notes an error that reached Express's error handling (message and stack, sent as an error log
 * linked to the request) and passes it on, so your own error handlers answer as before. Add it
 * after your routes and before your error handlers.
 *
 * @example
 * app.use(sightlineErrorHandler(sightline));
 * app.use((err, req, res, next) => res.status(500).json({ error: "internal" }));
 */
export function sightlineErrorHandler(
  sightline: Sightline,
): (error: unknown, req: ExpressRequest, res: ServerResponse, next: ExpressNext) => void {
  return function sightline_express_errors(error, req, _res, next) {
    sightline.recordError(exchangeOf(req), error);
    next(error);
  };
}

interface Layer {
  route?: unknown;
  handle?: { stack?: unknown };
  // Express 4 (router 1): a regular expression with its parameter names.
  regexp?: RegExp & { fast_slash?: boolean };
  keys?: { name: string | number }[];
  // Express 5 (router 2): matcher functions, and the pattern as written.
  matchers?: ((path: string) => { path: string; params: Record<string, unknown> } | false)[];
  rawPath?: unknown;
}

/** The template of the route that answered, mounts included, or undefined when none did. */
export function expressRoute(req: ExpressRequest): string | undefined {
  const route = req.route;
  if (route === undefined || route === null) return undefined;
  const own = firstString(route.path);
  if (own === undefined) return undefined;
  const base = req.baseUrl ?? "";
  if (base === "") return toTemplate(own);
  const prefix = mountTemplate(rootStack(req.app), route, base, 0) ?? base;
  return toTemplate(own === "/" ? prefix : prefix + own);
}

function firstString(path: unknown): string | undefined {
  if (typeof path === "string") return path;
  if (Array.isArray(path)) return path.find((p): p is string => typeof p === "string");
  return undefined;
}

function rootStack(app: unknown): Layer[] {
  if (app === null || (typeof app !== "function" && typeof app !== "object")) return [];
  const holder = app as { _router?: { stack?: unknown }; router?: { stack?: unknown } };
  const stack = holder._router?.stack ?? holder.router?.stack;
  return Array.isArray(stack) ? (stack as Layer[]) : [];
}

/** Walks the routers from the app down to the one holding `route`, templating each mount. */
function mountTemplate(stack: Layer[], route: unknown, remaining: string, depth: number): string | undefined {
  for (const layer of stack) {
    if (layer.route === route) return "";
    const sub = layer.handle?.stack;
    if (layer.route !== undefined || !Array.isArray(sub) || depth > 16) continue;
    const mount = matchMount(layer, remaining);
    if (mount === undefined) continue;
    const rest = mountTemplate(sub as Layer[], route, remaining.slice(mount.consumed), depth + 1);
    if (rest !== undefined) return mount.template + rest;
  }
  return undefined;
}

function matchMount(layer: Layer, path: string): { template: string; consumed: number } | undefined {
  if (Array.isArray(layer.matchers)) {
    for (const [index, matcher] of layer.matchers.entries()) {
      const match = matcher(path);
      if (match === false) continue;
      const raw = Array.isArray(layer.rawPath) ? layer.rawPath[index] : layer.rawPath;
      const template = typeof raw === "string" ? raw : substitute(match.path, Object.entries(match.params));
      return { template: trimSlash(template), consumed: match.path.length };
    }
    return undefined;
  }
  if (layer.regexp === undefined) return undefined;
  if (layer.regexp.fast_slash === true) return { template: "", consumed: 0 };
  const match = layer.regexp.exec(path);
  if (match === null || match.index !== 0) return undefined;
  const values = (layer.keys ?? []).map((key, i): [string, unknown] => [String(key.name), match[i + 1]]);
  return { template: trimSlash(substitute(match[0], values)), consumed: trimSlash(match[0]).length };
}

/** Puts `:name` back where each parameter's value stands in a matched path. */
function substitute(matched: string, params: [string, unknown][]): string {
  let out = matched;
  let from = 0;
  for (const [name, value] of params) {
    if (typeof value !== "string" || value === "") continue;
    let at = out.indexOf(`/${value}`, from);
    let length = value.length;
    if (at === -1) {
      const encoded = encodeURIComponent(value);
      at = out.indexOf(`/${encoded}`, from);
      length = encoded.length;
    }
    if (at === -1) continue;
    out = `${out.slice(0, at + 1)}:${name}${out.slice(at + 1 + length)}`;
    from = at + name.length + 2;
  }
  return out;
}

function trimSlash(path: string): string {
  return path.length > 0 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/** Where express-validator keeps the checks run on a request (its `contextsKey`). */
const EXPRESS_VALIDATOR_CONTEXTS = "express-validator#contexts";

/** The errors express-validator found on a request the app refused, without the app passing them. */
function expressValidatorErrors(req: ExpressRequest): unknown {
  const contexts = (req as unknown as Record<string, unknown>)[EXPRESS_VALIDATOR_CONTEXTS];
  if (!Array.isArray(contexts)) return undefined;
  const errors: unknown[] = [];
  for (const context of contexts) {
    const found = (context as { errors?: unknown } | null)?.errors;
    if (Array.isArray(found)) errors.push(...(found as unknown[]));
  }
  return errors;
}
