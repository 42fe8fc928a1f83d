// Every string a route sees is well-formed UTF-16: lone surrogates (JSON `"\ud83d"`, what a string
// cut in the middle of an emoji serialises to) become U+FFFD before validation. Stores cannot
// hold them (the events store refuses the insert; SQLite and PostgreSQL turn them into U+FFFD
// behind our uniqueness checks' back), so one hook spares every route, parser and store.
// Only JSON escapes carry them today: percent-decoding of query strings and paths keeps or
// refuses invalid UTF-8 (`%ED%A0%BD`) rather than produce one. Those are checked all the same, so
// a parser change cannot reopen the hole.
/// <reference lib="es2024.string" />
import type { FastifyRequest } from "fastify";
import type { App } from "./types.js";

/** Replaces, in place where it can, every ill-formed string (values and keys) in `value`. */
export function toWellFormed<T>(value: T): T {
  return repair(value, 0) as T;
}

/** Deeper than any body a JSON parser of ours accepts; stops a pathological walk. */
const MAX_DEPTH = 256;

function repair(value: unknown, depth: number): unknown {
  if (typeof value === "string") return value.isWellFormed() ? value : value.toWellFormed();
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = repair(value[i], depth + 1);
    return value;
  }
  const record = value as Record<string, unknown>;
  let badKeys = false;
  for (const key of Object.keys(record)) {
    if (!key.isWellFormed()) badKeys = true;
    else record[key] = repair(record[key], depth + 1);
  }
  if (!badKeys) return record;
  // Rebuilt with defineProperty semantics (fromEntries), so a "__proto__" key stays a key.
  return Object.fromEntries(
    Object.entries(record).map(([key, item]) => [
      key.toWellFormed(),
      key.isWellFormed() ? item : repair(item, depth + 1),
    ]),
  );
}

/** Bodies whose parser made every string well-formed itself: the hook does not walk them. */
const vetted = new WeakSet<FastifyRequest>();

/**
 * For a parser that repairs what it parses (ingest's JSON, record by record, only where the text
 * holds a surrogate escape) or whose body is binary (OTLP protobuf, whose service makes every
 * string it decodes well-formed): the hook must not walk the body again.
 */
export function vetRepairedBody(request: FastifyRequest): void {
  vetted.add(request);
}

/** For a binary body (OTLP protobuf): the route's service makes its strings well-formed. */
export const vetBinaryBody = vetRepairedBody;

/** Registers the hook on the root instance: it runs for every route, after parsing and before
 *  validation, whatever parser produced the body. */
export function registerWellFormedInput(app: App): void {
  app.addHook("preValidation", async (request) => {
    if (request.body !== undefined && !vetted.has(request)) request.body = toWellFormed(request.body);
    request.query = toWellFormed(request.query);
    request.params = toWellFormed(request.params);
  });
}
