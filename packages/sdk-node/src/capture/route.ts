// Route templates in Sightline's spelling (`/orders/{id}`) from each router's own syntax:
// `:id`, `:id?`, `:id(\\d+)`, `:id{[0-9]+}` (Hono), `*name` and `{/:optional}` (Express 5),
// and Next.js App Router file paths (`app/orders/[id]/route.ts`).
import { WIRE_LIMITS } from "../wire.js";

const NAME = /[A-Za-z0-9_$]/;

/** Templates of the patterns seen so far: an app has a bounded set of routes. */
const templates = new Map<string, string | undefined>();
const MAX_CACHED = 4096;

/** A router's path pattern as a Sightline template; undefined when there is nothing to use. */
export function toTemplate(pattern: string | undefined): string | undefined {
  if (pattern === undefined || pattern === "") return undefined;
  const cached = templates.get(pattern);
  if (cached !== undefined || templates.has(pattern)) return cached;
  const template = convert(pattern);
  if (templates.size < MAX_CACHED) templates.set(pattern, template);
  return template;
}

function convert(pattern: string): string | undefined {
  let out = "";
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] as string;
    if ((ch === ":" || ch === "*") && NAME.test(pattern[i + 1] ?? "")) {
      let end = i + 1;
      while (end < pattern.length && NAME.test(pattern[end] as string)) end += 1;
      out += `{${pattern.slice(i + 1, end)}}`;
      i = skipConstraint(pattern, end);
      continue;
    }
    // Already in Sightline's spelling.
    const named = ch === "{" ? /^\{[A-Za-z0-9_$]+\}/.exec(pattern.slice(i)) : null;
    if (named !== null) {
      out += named[0];
      i += named[0].length;
      continue;
    }
    // Express 5 optional groups (`/users{/:id}`) keep their content, not their braces.
    if (ch === "{" || ch === "}") {
      i += 1;
      continue;
    }
    out += ch;
    i += 1;
  }
  if (!out.startsWith("/")) out = `/${out}`;
  if (out.length > 1 && out.endsWith("/")) out = out.slice(0, -1);
  return out.length > WIRE_LIMITS.pathLength ? undefined : out;
}

/** Skips a parameter's regular expression (`(\\d+)` or Hono's `{[0-9]+}`) and modifier. */
function skipConstraint(pattern: string, from: number): number {
  let i = from;
  const open = pattern[i];
  if (open === "(" || (open === "{" && pattern[i + 1] !== "/")) {
    const close = open === "(" ? ")" : "}";
    let depth = 0;
    for (; i < pattern.length; i += 1) {
      const ch = pattern[i];
      if (ch === "\\") {
        i += 1;
        continue;
      }
      if (ch === open) depth += 1;
      else if (ch === close) {
        depth -= 1;
        if (depth === 0) {
          i += 1;
          break;
        }
      }
    }
  }
  if (pattern[i] === "?" || pattern[i] === "+" || pattern[i] === "*") i += 1;
  return i;
}

/**
 * The possible routes of a Next.js App Router handler from its file: a path or `file://` URL
 * ending in `app/…/route.(js|ts)`. Route groups `(group)` and parallel slots `@slot` are left
 * out; `[id]`, `[...slug]` and `[[...slug]]` become `{id}` and `{slug}`. Several when a folder
 * above or below the app directory is also called `app`; {@link pickRoute} chooses by the path.
 */
export function routesFromAppFile(file: string): string[] {
  const path = (file.startsWith("file:") ? decodeURIComponent(new URL(file).pathname) : file).replaceAll(
    "\\",
    "/",
  );
  const segments = path.split("/");
  const last = segments.at(-1) ?? "";
  if (!/^route\.[cm]?[jt]sx?$/.test(last)) return [];
  const routes: string[] = [];
  for (let i = segments.length - 2; i >= 0; i -= 1) {
    if (segments[i] !== "app") continue;
    const parts = segments
      .slice(i + 1, -1)
      .filter((segment) => segment !== "" && !/^\(.*\)$/.test(segment) && !segment.startsWith("@"))
      .map((segment) => {
        const dynamic = /^\[\[?(?:\.\.\.)?([^\]]+)\]\]?$/.exec(segment);
        return dynamic === null ? segment : `{${dynamic[1]}}`;
      });
    routes.push(`/${parts.join("/")}`);
  }
  return routes;
}

/** The template that fits `pathname`: same segment count and static segments first, then one
 *  whose dynamic segment may be a catch-all spanning the rest. */
export function pickRoute(templates: readonly string[], pathname: string): string | undefined {
  if (templates.length <= 1) return templates[0];
  const path = pathname.split("/").filter((s) => s !== "");
  const fits = (template: string, exact: boolean) => {
    const parts = template.split("/").filter((s) => s !== "");
    if (
      exact
        ? parts.length !== path.length
        : parts.length > path.length || !parts.some((p) => p.startsWith("{"))
    ) {
      return false;
    }
    return parts.every((part, i) => part.startsWith("{") || part === path[i]);
  };
  return templates.find((t) => fits(t, true)) ?? templates.find((t) => fits(t, false));
}

/**
 * A route from a request path and the values of its dynamic segments, for handlers that know
 * their parameters but not their pattern (Next.js `params`): each segment equal to a value
 * becomes `{name}`; a catch-all's list of values becomes one `{name}`.
 */
export function routeFromParams(
  pathname: string,
  params: Record<string, string | string[] | undefined>,
): string {
  const segments = pathname.split("/");
  const entries = Object.entries(params);
  // From the end, so a static segment that equals a later value is left alone.
  for (const [name, value] of entries.reverse()) {
    if (value === undefined) continue;
    const values = (Array.isArray(value) ? value : [value]).map((v) => encodeURIComponent(v));
    for (let end = segments.length; end - values.length >= 1; end -= 1) {
      const start = end - values.length;
      if (
        values.every(
          (v, k) => segments[start + k] === v || decodeURIComponent(segments[start + k] ?? "") === value,
        )
      ) {
        segments.splice(start, values.length, `{${name}}`);
        break;
      }
    }
  }
  return segments.join("/") || "/";
}
