// OTLP_LIMITS for protobuf bodies, counted while protobufjs decodes: the generated decoders call
// each nested message's `decode` through the generated root, so wrapping those functions counts
// every message as it is read and stops the decode (413) at the first cap exceeded, before the
// objects past it exist. Counting inside the decoder, not in a second scanner, means the counts
// are of exactly what would be built. Span events and links, and resource entity refs, are
// skipped unread: Sightline stores none of them. Resource and scope entries are walked, and
// counted, by otlp.protobuf-walk.ts; the counts of each export live in its DecodeBounds, so
// decodes that yield between items can interleave.
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
  readonly trace: Record<"Status", Decodable> & {
    readonly Span: Decodable & Record<"Event" | "Link", Decodable>;
  };
  readonly logs: Record<"LogRecord", Decodable>;
}

/** A frame is a message whose children are counted: it owns a list of attributes (or kvlist
 *  entries), or it is an arrayValue. Frames open and close within one synchronous decode of an
 *  item (a resource, a scope, a span, a log record), so one set serves every export. */
const MAX_FRAMES = 4 * OTLP_LIMITS.valueDepth + 16;
const entries = new Int32Array(MAX_FRAMES);
const events = new Int32Array(MAX_FRAMES);
const links = new Int32Array(MAX_FRAMES);
const isArray = new Uint8Array(MAX_FRAMES);
/** The frame open at the moment, and the AnyValue nesting; both 0 between items. */
let top = 0;
let valueDepth = 0;

/**
 * The counts of one export's decode, kept across the slices it is decoded in (decodes of several
 * exports interleave when they yield). Generated decoders count into it only while it is
 * entered: between `enter()` and `leave()`, which must not span an await.
 */
export class DecodeBounds {
  elements = 0;
  resources = 0;
  scopes = 0;
  items = 0;

  /** `itemName`: "spans" or "log records", for the answer. */
  constructor(readonly itemName: string) {}

  /** Makes this decode the one counted by the generated decoders. */
  enter(): void {
    makeCurrent(this);
  }

  /** Stops counting (before a yield, or when the decode ends or fails). */
  leave(): void {
    if (current === this) current = null;
  }

  /** A resourceSpans / resourceLogs entry starts (the caller walks it). */
  resource(): void {
    countElement();
    if (++this.resources > OTLP_LIMITS.resources) over("resources");
  }

  /** A scopeSpans / scopeLogs entry starts (the caller walks it). */
  scope(): void {
    countElement();
    if (++this.scopes > OTLP_LIMITS.scopes) over("scopes");
  }
}

/** The decode being counted; null outside a DecodeBounds' enter/leave. */
let current: DecodeBounds | null = null;

/** Between items no frame is open: each slice starts from the bottom. */
function makeCurrent(bounds: DecodeBounds): void {
  current = bounds;
  top = 0;
  valueDepth = 0;
  entries[0] = 0;
  isArray[0] = 0;
}

function over(limit: OtlpLimit): never {
  const itemName = current?.itemName;
  current = null;
  throw overLimit(limit, limit === "items" ? itemName : undefined);
}

function countElement(): void {
  if (++(current as DecodeBounds).elements > OTLP_LIMITS.elements) over("elements");
}

function openFrame(array: boolean): void {
  const frame = ++top;
  entries[frame] = 0;
  events[frame] = 0;
  links[frame] = 0;
  isArray[frame] = array ? 1 : 0;
}

/** Replaces `type.decode` with one that runs `enter` first (counting; it may throw) and, for a
 *  frame, counts the message's children in a frame of its own. Outside decodeBounded it is the
 *  generated decode as it was. */
function wrap(type: Decodable, enter: () => void, frame: "none" | "list" | "array"): void {
  const original: DecodeFunction = type.decode;
  const bounded: DecodeFunction =
    frame === "none"
      ? function (this: unknown, reader, length, error) {
          if (current !== null) enter();
          return original.call(this, reader, length, error);
        }
      : function (this: unknown, reader, length, error) {
          if (current === null) return original.call(this, reader, length, error);
          enter();
          openFrame(frame === "array");
          const message = original.call(this, reader, length, error);
          top -= 1;
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
    if (current === null || typeof length !== "number") return original.call(this, reader, length, error);
    enter();
    (reader as Skipper).skip(length);
    empty ??= original.call(this, new Uint8Array(0));
    return empty;
  };
}

/** Adds one to the open frame's counter in `counters`; the new count. */
function bump(counters: Int32Array): number {
  const count = (counters[top] ?? 0) + 1;
  counters[top] = count;
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

function itemEntry(): void {
  countElement();
  if (++(current as DecodeBounds).items > OTLP_LIMITS.items) over("items");
}

/** An AnyValue counts toward its depth and, as a value of an arrayValue, toward its entries. */
function wrapAnyValue(type: Decodable): void {
  const original: DecodeFunction = type.decode;
  type.decode = function (this: unknown, reader, length, error) {
    if (current === null) return original.call(this, reader, length, error);
    countElement();
    if (++valueDepth > OTLP_LIMITS.valueDepth) over("valueDepth");
    if (isArray[top] === 1 && bump(entries) > OTLP_LIMITS.listEntries) over("listEntries");
    const message = original.call(this, reader, length, error);
    valueDepth -= 1;
    return message;
  };
}
