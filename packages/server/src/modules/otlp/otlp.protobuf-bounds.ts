// OTLP_LIMITS for protobuf bodies, counted while protobufjs decodes: the generated decoders call
// each nested message's `decode` through the generated root, so wrapping those functions counts
// every message as it is read and stops the decode (413) at the first cap exceeded, before the
// objects past it exist. Counting inside the decoder, not in a second scanner, means the counts
// are of exactly what would be built. Span events and links, and resource entity refs, are
// skipped unread: Sightline stores none of them.
import { OTLP_LIMITS, type OtlpLimit, overLimit } from "./otlp.limits.js";

/** A generated message class, as far as decoding goes. */
interface Decodable {
  decode(reader: unknown, length?: number, error?: number): unknown;
}

/** protobufjs' Reader, the part used to skip a message. */
interface Skipper {
  skip(length?: number): unknown;
}

type DecodeFunction = Decodable["decode"];

/** The message classes of the generated root that are counted. */
export interface BoundedTypes {
  readonly common: Record<
    "AnyValue" | "ArrayValue" | "KeyValueList" | "KeyValue" | "InstrumentationScope" | "EntityRef",
    Decodable
  >;
  readonly resource: Record<"Resource", Decodable>;
  readonly trace: Record<"ResourceSpans" | "ScopeSpans" | "Status", Decodable> & {
    readonly Span: Decodable & Record<"Event" | "Link", Decodable>;
  };
  readonly logs: Record<"ResourceLogs" | "ScopeLogs" | "LogRecord", Decodable>;
}

/** A frame is a message whose children are counted: it owns a list of attributes (or kvlist
 *  entries), or it is an arrayValue. */
const MAX_FRAMES = 4 * OTLP_LIMITS.valueDepth + 16;
const entries = new Int32Array(MAX_FRAMES);
const events = new Int32Array(MAX_FRAMES);
const links = new Int32Array(MAX_FRAMES);
const isArray = new Uint8Array(MAX_FRAMES);

/** The decode in progress (decoding is synchronous: one at a time). */
const state = {
  active: false,
  /** "spans" or "log records", for the answer. */
  itemName: "",
  top: 0,
  valueDepth: 0,
  elements: 0,
  resources: 0,
  scopes: 0,
  items: 0,
};

/** Decodes `body` with `type` under OTLP_LIMITS; the 413 of the first cap exceeded is thrown. */
export function decodeBounded(type: Decodable, body: Uint8Array, itemName: string): unknown {
  state.active = true;
  state.itemName = itemName;
  state.top = 0;
  state.valueDepth = 0;
  state.elements = 0;
  state.resources = 0;
  state.scopes = 0;
  state.items = 0;
  entries[0] = 0;
  isArray[0] = 0;
  try {
    return type.decode(body);
  } finally {
    state.active = false;
  }
}

function over(limit: OtlpLimit): never {
  state.active = false;
  throw overLimit(limit, limit === "items" ? state.itemName : undefined);
}

function countElement(): void {
  if (++state.elements > OTLP_LIMITS.elements) over("elements");
}

function openFrame(array: boolean): void {
  const top = ++state.top;
  entries[top] = 0;
  events[top] = 0;
  links[top] = 0;
  isArray[top] = array ? 1 : 0;
}

/** Replaces `type.decode` with one that runs `enter` first (counting; it may throw) and, for a
 *  frame, counts the message's children in a frame of its own. Outside decodeBounded it is the
 *  generated decode as it was. */
function wrap(type: Decodable, enter: () => void, frame: "none" | "list" | "array"): void {
  const original: DecodeFunction = type.decode;
  const bounded: DecodeFunction =
    frame === "none"
      ? function (this: unknown, reader, length, error) {
          if (state.active) enter();
          return original.call(this, reader, length, error);
        }
      : function (this: unknown, reader, length, error) {
          if (!state.active) return original.call(this, reader, length, error);
          enter();
          openFrame(frame === "array");
          const message = original.call(this, reader, length, error);
          state.top -= 1;
          return message;
        };
  type.decode = bounded;
}

/** Replaces `type.decode` with one that counts the message and skips its bytes (one shared,
 *  empty message stands for all). */
function wrapSkipped(type: Decodable, enter: () => void): void {
  const original: DecodeFunction = type.decode;
  let empty: unknown;
  type.decode = function (this: unknown, reader, length, error) {
    if (!state.active || typeof length !== "number") return original.call(this, reader, length, error);
    enter();
    (reader as Skipper).skip(length);
    empty ??= original.call(this, new Uint8Array(0));
    return empty;
  };
}

/** Adds one to the open frame's counter in `counters`; the new count. */
function bump(counters: Int32Array): number {
  const count = (counters[state.top] ?? 0) + 1;
  counters[state.top] = count;
  return count;
}

function listEntry(): void {
  countElement();
  if (bump(entries) > OTLP_LIMITS.listEntries) over("listEntries");
}

let installed = false;

/** Installs the counting decoders on the generated root (once). */
export function installBounds(types: BoundedTypes): void {
  if (installed) return;
  installed = true;
  const { common, resource, trace, logs } = types;
  for (const entry of [trace.ResourceSpans, logs.ResourceLogs]) wrap(entry, resourceEntry, "none");
  for (const scope of [trace.ScopeSpans, logs.ScopeLogs]) wrap(scope, scopeEntry, "none");
  for (const item of [trace.Span, logs.LogRecord]) wrap(item, itemEntry, "list");
  wrap(resource.Resource, countElement, "list");
  wrap(common.InstrumentationScope, countElement, "list");
  wrap(trace.Status, countElement, "none");
  wrap(common.KeyValueList, countElement, "list");
  wrap(common.ArrayValue, countElement, "array");
  wrap(common.KeyValue, listEntry, "none");
  wrapAnyValue(common.AnyValue);
  wrapSkipped(trace.Span.Event, () => {
    countElement();
    if (bump(events) > OTLP_LIMITS.eventsPerSpan) over("eventsPerSpan");
  });
  wrapSkipped(trace.Span.Link, () => {
    countElement();
    if (bump(links) > OTLP_LIMITS.linksPerSpan) over("linksPerSpan");
  });
  wrapSkipped(common.EntityRef, countElement);
}

function resourceEntry(): void {
  countElement();
  if (++state.resources > OTLP_LIMITS.resources) over("resources");
}

function scopeEntry(): void {
  countElement();
  if (++state.scopes > OTLP_LIMITS.scopes) over("scopes");
}

function itemEntry(): void {
  countElement();
  if (++state.items > OTLP_LIMITS.items) over("items");
}

/** An AnyValue counts toward its depth and, as a value of an arrayValue, toward its entries. */
function wrapAnyValue(type: Decodable): void {
  const original: DecodeFunction = type.decode;
  type.decode = function (this: unknown, reader, length, error) {
    if (!state.active) return original.call(this, reader, length, error);
    countElement();
    if (++state.valueDepth > OTLP_LIMITS.valueDepth) over("valueDepth");
    if (isArray[state.top] === 1 && bump(entries) > OTLP_LIMITS.listEntries) over("listEntries");
    const message = original.call(this, reader, length, error);
    state.valueDepth -= 1;
    return message;
  };
}
