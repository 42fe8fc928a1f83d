// Route templates: one endpoint per (method, template) instead of one per raw URL. Derives a
// template from a raw path, and rewrites framework spellings of a given template to `{name}`.

const PLACEHOLDER = "{id}";

const INTEGER = /^\d+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^[0-9a-f]+$/i;
const DIGIT = /\d/;
const LETTER = /[A-Za-z]/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Stripe-style `cus_NffrFeUfNV2Hib`: a short word, an underscore, an opaque tail with a digit. */
const PREFIXED_ID = /^[A-Za-z]{1,16}_[A-Za-z0-9]{8,}$/;
const EMAIL = /^[^@\s]+(?:@|%40)[^@\s]+\.[^@\s]+$/i;
/** base64 / base64url alphabets; length and character mix decide below. */
const TOKEN = /^[A-Za-z0-9_+=-]{20,}$/;
/** Lower-case words joined by `-` or `_` (`how-to-build-an-api-in-2024`): a slug, not a token. */
const WORD_SLUG = /^[a-z0-9]+(?:[-_][a-z0-9]+)+$/;

/** True when a path segment names one thing among many (an id), not a fixed part of the route. */
export function isIdentifierSegment(segment: string): boolean {
  if (INTEGER.test(segment)) return true;
  // Most segments are short words (`api`, `v1`, `orders`): settle them without the patterns below.
  if (segment.length < 8) return segment.includes("@") && EMAIL.test(segment);
  if (UUID.test(segment) || DATE.test(segment) || EMAIL.test(segment)) return true;
  if (HEX.test(segment)) {
    // Long hex is a digest or object id; shorter hex counts only with a digit ("deadbeef", "cafe" stay).
    return segment.length >= 16 || (segment.length >= 8 && DIGIT.test(segment));
  }
  if (PREFIXED_ID.test(segment)) return DIGIT.test(segment.slice(segment.indexOf("_")));
  return TOKEN.test(segment) && DIGIT.test(segment) && LETTER.test(segment) && !WORD_SLUG.test(segment);
}

/**
 * The template of a raw path: query and fragment dropped, empty segments (`//`, a trailing
 * `/`) removed, identifier-like segments replaced with `{id}`. `/users/42/` -> `/users/{id}`.
 * One pass without intermediate arrays: it runs once per ingested request record.
 */
export function deriveRouteTemplate(path: string): string {
  const end = pathEnd(path);
  let template = "";
  let start = 0;
  while (start < end) {
    let stop = path.indexOf("/", start);
    if (stop === -1 || stop > end) stop = end;
    if (stop > start) {
      const segment = path.slice(start, stop);
      template += isIdentifierSegment(segment) ? `/${PLACEHOLDER}` : `/${segment}`;
    }
    start = stop + 1;
  }
  return template === "" ? "/" : template;
}

/**
 * A framework's template in one spelling: Express `:id` (with an optional `(regex)` or `?`),
 * Flask/Django `<int:id>` and typed `{id:int}` all become `{id}`; the rest is kept. Leading `/`
 * added, query, empty segments and a trailing `/` dropped.
 */
export function normaliseRouteTemplate(route: string): string {
  const segments = segmentsOf(route).map((segment) => {
    const express = /^:([A-Za-z_$][\w$]*)(?:\(.*\))?\??$/.exec(segment);
    if (express) return `{${express[1]}}`;
    const angle = /^<(?:[A-Za-z_]\w*:)?([A-Za-z_]\w*)>$/.exec(segment);
    if (angle) return `{${angle[1]}}`;
    const typed = /^\{([A-Za-z_]\w*)(?::[^}]*)?\}$/.exec(segment);
    if (typed) return `{${typed[1]}}`;
    return segment;
  });
  return segments.length === 0 ? "/" : `/${segments.join("/")}`;
}

/** Where the path proper ends: at the query or fragment, if any. */
function pathEnd(path: string): number {
  const query = path.indexOf("?");
  const hash = path.indexOf("#");
  if (query === -1) return hash === -1 ? path.length : hash;
  return hash === -1 ? query : Math.min(query, hash);
}

function segmentsOf(path: string): string[] {
  return path
    .slice(0, pathEnd(path))
    .split("/")
    .filter((segment) => segment !== "");
}
