// What leaves the app when headers or bodies are captured (both off by default): credentials
// in headers are always replaced, body fields whose keys look secret are masked at any depth,
// and only JSON and text bodies are kept, cut to a size.
import { WIRE_LIMITS } from "../wire.js";

export const REDACTED = "[REDACTED]";

/** Headers whose values never leave the app, whatever the options say. */
export const ALWAYS_REDACTED_HEADERS: readonly string[] = [
  "authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "proxy-authorization",
];

/** Body keys masked by default (case-insensitive, anywhere in the key). */
export const DEFAULT_BODY_KEYS = /password|secret|token|api[_-]?key|authorization|card/i;

export interface RedactionRules {
  /** Extra header names (exact, case-insensitive) or patterns whose values are replaced. */
  readonly headerPatterns: readonly (string | RegExp)[];
  readonly bodyKeys: RegExp;
  readonly maxBodyBytes: number;
}

type HeaderValue = string | string[] | number | undefined | null;

function redactHeader(name: string, rules: RedactionRules): boolean {
  if (ALWAYS_REDACTED_HEADERS.includes(name)) return true;
  return rules.headerPatterns.some((pattern) =>
    typeof pattern === "string" ? pattern.toLowerCase() === name : pattern.test(name),
  );
}

/** Lower-cased headers with credentials replaced, at most as many as ingest takes. */
export function captureHeaders(
  entries: Iterable<[string, HeaderValue]>,
  rules: RedactionRules,
): Record<string, string> {
  const out: Record<string, string> = {};
  let count = 0;
  for (const [rawName, value] of entries) {
    if (value === undefined || value === null) continue;
    const name = rawName.toLowerCase();
    if (name.length > WIRE_LIMITS.headerNameLength) continue;
    if (count >= WIRE_LIMITS.headerCount) break;
    out[name] = redactHeader(name, rules)
      ? REDACTED
      : Array.isArray(value)
        ? value.join(", ")
        : String(value);
    count += 1;
  }
  return out;
}

/** Whether a body of this content type is captured at all. */
export function isCapturable(contentType: string | undefined | null): boolean {
  if (typeof contentType !== "string") return false;
  const type = contentType.toLowerCase();
  return (
    type.includes("json") ||
    type.startsWith("text/") ||
    type.startsWith("application/x-www-form-urlencoded") ||
    type.includes("xml")
  );
}

/** Masks values under secret-looking keys, at any depth. */
export function maskValue(value: unknown, keys: RegExp, depth = 0): unknown {
  if (depth > 32 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => maskValue(item, keys, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    out[key] = keys.test(key) ? REDACTED : maskValue(inner, keys, depth + 1);
  }
  return out;
}

/**
 * A body as it is sent: masked, serialised and cut to `maxBodyBytes`. `body` may be what a
 * framework parsed (an object), or raw text/bytes with their content type. Empty when the
 * content type is not JSON or text.
 */
export function captureBody(
  body: unknown,
  contentType: string | undefined | null,
  rules: RedactionRules,
): string {
  if (body === undefined || body === null || !isCapturable(contentType)) return "";
  const type = (contentType as string).toLowerCase();
  let text: string;
  if (typeof body === "string" || Buffer.isBuffer(body) || body instanceof Uint8Array) {
    const raw = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
    text = type.includes("json")
      ? maskJsonText(raw, rules.bodyKeys)
      : type.includes("urlencoded")
        ? maskForm(raw, rules.bodyKeys)
        : raw;
  } else if (typeof body === "object") {
    text = safeStringify(maskValue(body, rules.bodyKeys));
  } else {
    text = String(body);
  }
  return cutUtf8(text, Math.min(rules.maxBodyBytes, WIRE_LIMITS.payloadBytes));
}

function maskJsonText(raw: string, keys: RegExp): string {
  try {
    return safeStringify(maskValue(JSON.parse(raw), keys));
  } catch {
    // Not valid JSON (or cut short): masking can't be trusted, so nothing of it is kept.
    return "";
  }
}

function maskForm(raw: string, keys: RegExp): string {
  const params = new URLSearchParams(raw);
  for (const key of [...params.keys()]) if (keys.test(key)) params.set(key, REDACTED);
  return params.toString();
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** `text` with lone surrogates replaced by U+FFFD: Sightline cannot store them (issue 9). */
export function wellFormed(text: string): string {
  const native = (text as { toWellFormed?: () => string }).toWellFormed;
  return typeof native === "function" ? native.call(text) : text;
}

/** `text` made well-formed and cut to at most `maxBytes` UTF-8 bytes, never mid-character. */
export function cutUtf8(raw: string, maxBytes: number): string {
  const text = wellFormed(raw);
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return text;
  let end = Math.min(text.length, maxBytes);
  while (end > 0 && Buffer.byteLength(text.slice(0, end)) > maxBytes) end = Math.floor(end * 0.9);
  // Never end on the first half of a surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}
