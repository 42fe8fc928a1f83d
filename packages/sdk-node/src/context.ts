// The request a piece of code runs for: adapters tag the framework's request objects with
// their Exchange (so setConsumer(req, …) finds it) and, once a log integration asks for it,
// run the handler inside an AsyncLocalStorage scope so log lines link to their request.
// The scope is opt-in because AsyncLocalStorage costs every promise something on Node 20.
import { AsyncLocalStorage } from "node:async_hooks";
import { type ConsumerInput, type Exchange, toConsumer } from "./capture/exchange.js";
import { validationIssues } from "./capture/validation.js";

/** One scope store per process, shared by the ESM and CommonJS builds if both get loaded. */
interface Scopes {
  readonly storage: AsyncLocalStorage<Exchange>;
  enabled: boolean;
}
const SCOPES = Symbol.for("sightline.scopes");
const holder = globalThis as { [SCOPES]?: Scopes };
const scopes: Scopes = (holder[SCOPES] ??= { storage: new AsyncLocalStorage<Exchange>(), enabled: false });

/** Turns request scopes on for every adapter (log integrations call this). */
export function enableRequestScopes(): void {
  scopes.enabled = true;
}

/** Runs `fn` as part of `exchange` when scopes are on; otherwise just runs it. */
export function runInScope<T>(exchange: Exchange, fn: () => T): T {
  return scopes.enabled ? scopes.storage.run(exchange, fn) : fn();
}

/** The request the calling code is running for, when scopes are on and it runs for one. */
export function currentExchange(): Exchange | undefined {
  return scopes.enabled ? scopes.storage.getStore() : undefined;
}

/** Framework objects (requests, contexts) and their exchanges, shared like the scopes. A WeakMap
 *  rather than a property on the object: Express's req and res are dictionary-mode objects, and
 *  a new key makes V8 grow the dictionary, ~1.4 KB allocated per request and key (measured,
 *  docs/performance.md); an entry here costs a few dozen bytes and goes with its key. */
const TAGS = Symbol.for("sightline.exchanges");
const tagHolder = globalThis as { [TAGS]?: WeakMap<object, Exchange> };
const tags: WeakMap<object, Exchange> = (tagHolder[TAGS] ??= new WeakMap());

/** Links a framework object (request, context) to its exchange. */
export function tag(target: object, exchange: Exchange): void {
  tags.set(target, exchange);
}

/** The exchange tagged on exactly this object (the node:http capture's lookup per write). */
export function taggedExchange(target: object): Exchange | undefined {
  return tags.get(target);
}

/** The exchange of a framework object, or of the node:http request it wraps (Fastify's
 *  `request.raw`, Koa's `ctx.req`, Hono's `c.env.incoming` on Node): adapters tag only the raw
 *  request when it is reachable, one WeakMap entry per request instead of two. */
export function exchangeOf(target: unknown): Exchange | undefined {
  if (target === null || typeof target !== "object") return undefined;
  const own = tags.get(target);
  if (own !== undefined) return own;
  const wrapper = target as { raw?: unknown; req?: unknown; env?: { incoming?: unknown } | null };
  const inner = wrapper.raw ?? wrapper.req;
  const found = inner !== null && typeof inner === "object" ? tags.get(inner) : undefined;
  if (found !== undefined) return found;
  const incoming = wrapper.env?.incoming;
  return incoming !== null && typeof incoming === "object" ? tags.get(incoming) : undefined;
}

/**
 * Names the consumer of a request: `req` is whatever your framework hands your handler
 * (Express/Nest `req`, Fastify `request`, Koa `ctx`, Hono `c`, a Next.js `Request`).
 * Outside a recognised request it applies to the current request scope, if any.
 *
 * @example
 * app.use((req, res, next) => {
 *   setConsumer(req, { id: req.user.id, name: req.user.company, group: req.user.plan });
 *   next();
 * });
 */
export function setConsumer(req: unknown, consumer: ConsumerInput): void {
  const exchange = exchangeOf(req) ?? currentExchange();
  if (exchange !== undefined) exchange.consumer = toConsumer(consumer);
}

/**
 * Notes why your code refused a request, for apps that answer 400/422 themselves instead of
 * throwing: pass the validator's failure (a ZodError or `safeParse(...).error`, ajv's
 * `validate.errors`, class-validator's `validate(...)` result, express-validator's
 * `validationResult(req)`). Field paths, rules and messages are sent with the record, never the
 * values. `req` is as for {@link setConsumer}.
 *
 * @example
 * const parsed = Order.safeParse(req.body);
 * if (!parsed.success) {
 *   recordValidationErrors(req, parsed.error);
 *   return res.status(422).json(parsed.error.flatten());
 * }
 */
export function recordValidationErrors(req: unknown, failure: unknown): void {
  const exchange = exchangeOf(req) ?? currentExchange();
  if (exchange === undefined) return;
  try {
    const issues = validationIssues(failure);
    if (issues !== undefined) exchange.validationErrors = issues;
  } catch {
    // Never into the app: an unreadable failure is simply not recorded.
  }
}
