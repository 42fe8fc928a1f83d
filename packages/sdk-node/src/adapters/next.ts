// Next.js App Router: wraps a route handler (`export const GET = withSightline(...)`). The
// route comes from the handler's file (`app/orders/[id]/route.ts` -> `/orders/{id}`) when you
// pass `import.meta.url` or a template, else from the request path and the handler's params.
import type { Sightline } from "../client.js";
import type { ConsumerInput } from "../capture/exchange.js";
import { observeFetchExchange } from "../capture/fetch.js";
import { pickRoute, routeFromParams, routesFromAppFile, toTemplate } from "../capture/route.js";

export interface NextHandlerOptions {
  /**
   * The handler's route: `import.meta.url` (or the file path) of the route file, or a template
   * such as `/orders/[id]` or `/orders/{id}`. Default: derived from the path and `params`.
   */
  route?: string;
  /** Names the consumer when the handler did not call `setConsumer(request, …)`. Default: the client's option. */
  identifyConsumer?: (request: Request) => ConsumerInput;
}

type Params = Record<string, string | string[] | undefined>;
type RouteContext = { params?: Params | Promise<Params> } | undefined;

/**
 * Records every call of a Next.js App Router route handler. The handler runs exactly as
 * before; a thrown error is noted (error log with stack) and thrown on to Next.js.
 *
 * @example
 * // app/api/orders/[id]/route.ts
 * import { withSightline } from "@sightline/node/next";
 * import { sightline } from "@/lib/sightline";
 * export const GET = withSightline(sightline, async (request, { params }) => Response.json({ id: (await params).id }));
 */
export function withSightline<Context extends RouteContext, R extends Request = Request>(
  sightline: Sightline,
  handler: (request: R, context: Context) => Response | Promise<Response>,
  options: NextHandlerOptions = {},
): (request: R, context: Context) => Promise<Response> {
  const candidates = options.route === undefined ? [] : nextRoutes(options.route);
  const identify = options.identifyConsumer as ((request: unknown) => ConsumerInput) | undefined;
  return async function sightline_next(request, context) {
    if (!sightline.enabled) return handler(request, context);
    const route =
      candidates.length > 0
        ? pickRoute(candidates, pathnameOf(request))
        : await routeFromContext(request, context);
    const hops = forwardedHops(request);
    const peer = hops.pop();
    return observeFetchExchange(sightline, request, {
      remoteAddress: peer,
      forwardedFor: hops.length > 0 ? hops.join(", ") : null,
      request,
      identify,
      handle: async () => handler(request, context),
      afterHandle: (exchange) => {
        exchange.route = route;
      },
      thrownStatus: 500,
    });
  };
}

async function routeFromContext(request: Request, context: RouteContext): Promise<string | undefined> {
  try {
    const params = context?.params === undefined ? {} : await context.params;
    return toTemplate(routeFromParams(pathnameOf(request), params ?? {}));
  } catch {
    return undefined;
  }
}

function pathnameOf(request: Request): string {
  try {
    return new URL(request.url).pathname;
  } catch {
    return "/";
  }
}

/** A route option as templates: a route file, or a pattern in Next's or Sightline's spelling. */
function nextRoutes(route: string): string[] {
  if (route.startsWith("file:") || /\/route\.[cm]?[jt]sx?$/.test(route)) return routesFromAppFile(route);
  const template = toTemplate(route.replace(/\[\[?(?:\.\.\.)?([^\]]+)\]\]?/g, "{$1}"));
  return template === undefined ? [] : [template];
}

/**
 * Next's server appends the socket's address to X-Forwarded-For before handlers run, so the
 * last entry is the peer; the entries before it count only as far as `trustProxy` allows.
 */
function forwardedHops(request: Request): string[] {
  return (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
}
