// Decoding OTLP/HTTP export requests into the shapes of otlp.model.ts. Protobuf goes through
// the code protobufjs generated from the official opentelemetry-proto definitions (shipped by
// @opentelemetry/otlp-transformer), whose messages are read as they are; JSON follows the
// OTLP/JSON mapping (lowerCamelCase names, hex ids, 64-bit integers as strings or numbers) and
// is checked as it is walked. A body that is not an export request of the
// route's signal is a 400; problems of single items are left to the mapping, which rejects them.
// Both are bounded by OTLP_LIMITS while they are read (an export over a cap is a 413 before its
// objects are built).
// Every string read is made well-formed (lone surrogates become U+FFFD), as the HTTP layer does
// for JSON bodies: the stores cannot hold them.
/// <reference lib="es2024.string" />
import { createRequire } from "node:module";
import { AppError } from "../../errors.js";
import { createPace, type Pace } from "../../lib/pace.js";
import { type ExportPath, scanJsonExport } from "./otlp.json-bounds.js";
import { OTLP_LIMITS, overLimit } from "./otlp.limits.js";
import type {
  AttributeValue,
  Attributes,
  LogsExport,
  OtlpEncoding,
  OtlpLogRecord,
  OtlpSpan,
  ResourceGroup,
  TracesExport,
} from "./otlp.model.js";
import { type BoundedTypes, DecodeBounds, installBounds } from "./otlp.protobuf-bounds.js";
import {
  decodeExportPaced,
  type DecodedResource,
  type ExportShape,
  type ProtobufReaderClass,
} from "./otlp.protobuf-walk.js";

/** The part of a protobufjs generated message class used here, in tests and in the bench. */
export interface MessageType {
  decode(bytes: Uint8Array): unknown;
  encode(message: unknown): { finish(): Uint8Array };
  fromObject(object: Record<string, unknown>): unknown;
  toObject(message: unknown, options: Record<string, unknown>): Record<string, unknown>;
}

interface GeneratedRoot {
  readonly opentelemetry: {
    readonly proto: {
      readonly common: { readonly v1: BoundedTypes["common"] };
      readonly resource: { readonly v1: BoundedTypes["resource"] };
      readonly trace: { readonly v1: BoundedTypes["trace"] };
      readonly logs: { readonly v1: BoundedTypes["logs"] };
      readonly collector: {
        readonly trace: {
          readonly v1: Record<"ExportTraceServiceRequest" | "ExportTraceServiceResponse", MessageType>;
        };
        readonly logs: {
          readonly v1: Record<"ExportLogsServiceRequest" | "ExportLogsServiceResponse", MessageType>;
        };
      };
    };
  };
}

// The generated module is CommonJS and typed as a reflection Root it is not; 0.214.0 is the last
// release that ships it with the trace and logs decoders (pinned exactly in package.json).
const require = createRequire(import.meta.url);
const generatedPath = require.resolve("@opentelemetry/otlp-transformer/build/src/generated/root.js");
const generated = require(generatedPath) as GeneratedRoot;
// The generated decoders' own protobufjs (they test readers with instanceof).
const { Reader } = createRequire(generatedPath)("protobufjs/minimal") as { Reader: ProtobufReaderClass };
const traceService = generated.opentelemetry.proto.collector.trace.v1;
const logsService = generated.opentelemetry.proto.collector.logs.v1;
const { proto } = generated.opentelemetry;
installBounds({
  common: proto.common.v1,
  resource: proto.resource.v1,
  trace: proto.trace.v1,
  logs: proto.logs.v1,
});

const TRACES: ExportShape = {
  resource: proto.resource.v1.Resource,
  scope: proto.common.v1.InstrumentationScope,
  item: proto.trace.v1.Span,
};
const LOGS: ExportShape = {
  resource: proto.resource.v1.Resource,
  scope: proto.common.v1.InstrumentationScope,
  item: proto.logs.v1.LogRecord,
};

/** The export request and response messages, for clients that encode them (tests, bench). */
export const OTLP_MESSAGES = {
  traces: {
    request: traceService.ExportTraceServiceRequest,
    response: traceService.ExportTraceServiceResponse,
  },
  logs: { request: logsService.ExportLogsServiceRequest, response: logsService.ExportLogsServiceResponse },
} as const;

export type Signal = "traces" | "logs";

export const TRACES_PATH: ExportPath = ["resourceSpans", "scopeSpans", "spans"];
export const LOGS_PATH: ExportPath = ["resourceLogs", "scopeLogs", "logRecords"];

/** Decodes (and maps) an export in paced slices: a big one never holds the event loop. */
export async function decodeTraces(
  body: Buffer,
  encoding: OtlpEncoding,
  pace: Pace = createPace(),
): Promise<TracesExport> {
  if (encoding === "protobuf") {
    const resources = await decodeProtobuf(TRACES, body, "traces", "spans", pace);
    return protobufGroups(resources, protobufSpan as (item: unknown, scope: string) => OtlpSpan, pace);
  }
  const root = await parseJsonExport(body, "spans", TRACES_PATH, pace);
  return groups(root, ...TRACES_PATH, readSpan, pace);
}

export async function decodeLogs(
  body: Buffer,
  encoding: OtlpEncoding,
  pace: Pace = createPace(),
): Promise<LogsExport> {
  if (encoding === "protobuf") {
    const resources = await decodeProtobuf(LOGS, body, "logs", "log records", pace);
    return protobufGroups(
      resources,
      protobufLogRecord as (item: unknown, scope: string) => OtlpLogRecord,
      pace,
    );
  }
  const root = await parseJsonExport(body, "log records", LOGS_PATH, pace);
  return groups(root, ...LOGS_PATH, readLogRecord, pace);
}

/** Decoded resource entries as resource groups, each item mapped with its scope's name. */
async function protobufGroups<T>(
  resources: readonly DecodedResource[],
  mapItem: (item: unknown, scope: string) => T,
  pace: Pace,
): Promise<ResourceGroup<T>[]> {
  const out: ResourceGroup<T>[] = [];
  for (const { resource, scopes } of resources) {
    const items: T[] = [];
    for (const scope of scopes) {
      const scopeName = str((scope.scope as PbScope | null)?.name);
      for (const item of scope.items) {
        items.push(mapItem(item, scopeName));
        if (pace.due()) await pace.yield();
      }
    }
    out.push({ resource: protobufAttributes((resource as PbResource | null)?.attributes), items });
  }
  return out;
}

/** The export answer in the request's encoding: empty on full success, as the spec asks. */
export function encodeAnswer(
  signal: Signal,
  encoding: OtlpEncoding,
  rejected: number,
  errorMessage: string,
): Buffer | Record<string, unknown> {
  const counter = signal === "traces" ? "rejectedSpans" : "rejectedLogRecords";
  const answer =
    rejected === 0 && errorMessage === "" ? {} : { partialSuccess: { [counter]: rejected, errorMessage } };
  if (encoding === "json") return answer;
  const type =
    signal === "traces" ? traceService.ExportTraceServiceResponse : logsService.ExportLogsServiceResponse;
  return Buffer.from(type.encode(type.fromObject(answer)).finish());
}

async function decodeProtobuf(
  shape: ExportShape,
  body: Buffer,
  signal: Signal,
  itemName: string,
  pace: Pace,
): Promise<DecodedResource[]> {
  try {
    return await decodeExportPaced(Reader, shape, body, new DecodeBounds(itemName), pace);
  } catch (error) {
    if (error instanceof AppError) throw error;
    const reason = error instanceof Error ? `: ${error.message}` : "";
    throw new AppError(
      "bad_request",
      `The body is not a protobuf-encoded OTLP Export${signal === "traces" ? "Trace" : "Logs"}ServiceRequest${reason}.`,
      { cause: error },
    );
  }
}

/** Bodies up to this size parse in one JSON.parse call, a few milliseconds. */
const WHOLE_PARSE_CHARS = 512 * 1024;

/**
 * The body's JSON, checked against OTLP_LIMITS first. A big body is parsed item by item, so it
 * never holds the event loop: its skeleton (the text with every item of `path` replaced by 0)
 * at once, then each item, paced, into its place. A body whose skeleton does not hold its items
 * where the scan found them (a duplicated member, which JSON.parse resolves to the last) is
 * parsed whole: it is still bounded by the caps.
 */
export async function parseJsonExport(
  body: Buffer,
  itemName: string,
  path: ExportPath,
  pace: Pace,
): Promise<unknown> {
  const decoded = body.toString("utf8");
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  if (text.trim() === "") throw new AppError("invalid_json", "The request body is empty.");
  const items = await scanJsonExport(text, itemName, path, pace);
  try {
    if (text.length <= WHOLE_PARSE_CHARS || items === null || items.length % 2 !== 0) return JSON.parse(text);
    const parts: string[] = [];
    let last = 0;
    for (let n = 0; n < items.length; n += 2) {
      parts.push(text.slice(last, items[n]), "0");
      last = items[n + 1] as number;
    }
    parts.push(text.slice(last));
    const root: unknown = JSON.parse(parts.join(""));
    const slots = itemSlots(root, path);
    if (slots === null || slots.length !== items.length / 2) return JSON.parse(text);
    for (let n = 0; n < slots.length; n++) {
      const [list, index] = slots[n] as [unknown[], number];
      list[index] = JSON.parse(text.slice(items[2 * n], items[2 * n + 1]));
      if (pace.due()) await pace.yield();
    }
    return root;
  } catch (error) {
    throw new AppError("invalid_json", "The request body is not valid JSON.", { cause: error });
  }
}

/** The places of a skeleton's items (arrays and indexes, in text order), or null when the
 *  skeleton is not shaped as the scan saw it. */
function itemSlots(
  root: unknown,
  [resourcesKey, scopesKey, itemsKey]: ExportPath,
): Array<[unknown[], number]> | null {
  const slots: Array<[unknown[], number]> = [];
  const member = (value: unknown, key: string): unknown =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)[key]
      : undefined;
  const resources = member(root, resourcesKey);
  if (!Array.isArray(resources)) return resources === undefined ? slots : null;
  for (const resource of resources) {
    const scopes = member(resource, scopesKey);
    if (!Array.isArray(scopes)) continue;
    for (const scope of scopes) {
      const list = member(scope, itemsKey);
      if (!Array.isArray(list)) continue;
      for (let index = 0; index < list.length; index++) {
        if (list[index] !== 0) return null;
        slots.push([list, index]);
      }
    }
  }
  return slots;
}

// Generated messages, as protobufjs' decoder leaves them: every field present, scalars and
// messages null when not sent, repeated fields arrays. Their shape needs no checking, and they
// are read on the hot path of OTLP ingest: no error paths are built for them.
type PbLong = { readonly low: number; readonly high: number } | number;
interface PbAnyValue {
  readonly stringValue: string | null;
  readonly boolValue: boolean | null;
  readonly intValue: PbLong | null;
  readonly doubleValue: number | null;
  readonly arrayValue: { readonly values: readonly PbAnyValue[] } | null;
  readonly kvlistValue: { readonly values: readonly PbKeyValue[] } | null;
  readonly bytesValue: Uint8Array | null;
}
interface PbKeyValue {
  readonly key: string | null;
  readonly value: PbAnyValue | null;
}
interface PbResource {
  readonly attributes: readonly PbKeyValue[];
}
interface PbScope {
  readonly name: string | null;
}
interface PbSpan {
  readonly traceId: Uint8Array | null;
  readonly spanId: Uint8Array | null;
  readonly parentSpanId: Uint8Array | null;
  readonly name: string | null;
  readonly kind: number | null;
  readonly startTimeUnixNano: PbLong | null;
  readonly endTimeUnixNano: PbLong | null;
  readonly attributes: readonly PbKeyValue[];
  readonly status: { readonly code: number | null; readonly message: string | null } | null;
}
interface PbLogRecord {
  readonly timeUnixNano: PbLong | null;
  readonly observedTimeUnixNano: PbLong | null;
  readonly severityNumber: number | null;
  readonly severityText: string | null;
  readonly body: PbAnyValue | null;
  readonly attributes: readonly PbKeyValue[];
  readonly traceId: Uint8Array | null;
  readonly spanId: Uint8Array | null;
  readonly eventName: string | null;
}
function protobufSpan(span: PbSpan, scope: string): OtlpSpan {
  return {
    traceId: hexOf(span.traceId),
    spanId: hexOf(span.spanId),
    parentSpanId: hexOf(span.parentSpanId),
    name: str(span.name),
    kind: span.kind ?? 0,
    startNs: toBigInt(span.startTimeUnixNano),
    endNs: toBigInt(span.endTimeUnixNano),
    attributes: protobufAttributes(span.attributes),
    statusCode: span.status?.code ?? 0,
    statusMessage: str(span.status?.message),
    scope,
  };
}

function protobufLogRecord(record: PbLogRecord, scope: string): OtlpLogRecord {
  return {
    timeNs: toBigInt(record.timeUnixNano),
    observedNs: toBigInt(record.observedTimeUnixNano),
    severityNumber: record.severityNumber ?? 0,
    severityText: str(record.severityText),
    body: record.body === null ? null : protobufValue(record.body, 0),
    attributes: protobufAttributes(record.attributes),
    traceId: hexOf(record.traceId),
    spanId: hexOf(record.spanId),
    eventName: str(record.eventName),
    scope,
  };
}

function protobufAttributes(list: readonly PbKeyValue[] | undefined): Attributes {
  const map = new Map<string, AttributeValue>();
  if (list === undefined) return map;
  for (const { key, value } of list) {
    if (key === null || key === "") continue;
    map.set(str(key), value === null ? null : protobufValue(value, 0));
  }
  return map;
}

/** An AnyValue message's set field, looked for in the proto's field order (as protobufjs'
 *  oneof getter does). */
function protobufValue(value: PbAnyValue, depth: number): AttributeValue {
  if (depth > MAX_VALUE_DEPTH) return null;
  if (value.stringValue !== null) return str(value.stringValue);
  if (value.boolValue !== null) return value.boolValue;
  if (value.intValue !== null) return int64(value.intValue);
  if (value.doubleValue !== null) return Number.isFinite(value.doubleValue) ? value.doubleValue : null;
  if (value.arrayValue !== null)
    return (value.arrayValue.values ?? []).map((item) => protobufValue(item, depth + 1));
  if (value.kvlistValue !== null) {
    const entries: Array<[string, AttributeValue]> = [];
    for (const { key, value: inner } of value.kvlistValue.values ?? []) {
      if (key !== null) entries.push([str(key), inner === null ? null : protobufValue(inner, depth + 1)]);
    }
    // fromEntries defines own properties: a "__proto__" key stays a key.
    return Object.fromEntries(entries);
  }
  if (value.bytesValue !== null) return Buffer.from(value.bytesValue).toString("base64");
  return null;
}

function hexOf(bytes: Uint8Array | null): string {
  return bytes === null || bytes.length === 0
    ? ""
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("hex");
}

/** An int64 as a number: a Long's signed high half times 2^32 plus its unsigned low half. */
function int64(value: unknown): number | null {
  const number = isLong(value)
    ? value.high * 0x1_0000_0000 + (value.low >>> 0)
    : Number(typeof value === "object" && value !== null ? String(value) : value);
  return Number.isFinite(number) ? number : null;
}

/** A uint64 from a Long (protobufjs), a decimal string or a number; 0n when it is none. */
function toBigInt(value: unknown): bigint {
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? BigInt(value) : 0n;
  // A Long's two 32-bit halves, without the decimal text String(long) would build and parse:
  // every span has two of them.
  if (isLong(value)) return (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);
  const text =
    typeof value === "string" ? value : typeof value === "object" && value !== null ? String(value) : "";
  return /^\d{1,20}$/.test(text) ? BigInt(text) : 0n;
}

function isLong(value: unknown): value is { readonly low: number; readonly high: number } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { low?: unknown }).low === "number" &&
    typeof (value as { high?: unknown }).high === "number"
  );
}

type ItemReader<T> = (item: Record<string, unknown>, scope: string, path: string) => T;

/** Walks an OTLP/JSON body's resource -> scope -> items, checking its shape as it goes (JSON
 *  can be anything, and a wrong shape is a 400 naming where), yielding between items when
 *  `pace` is due. */
async function groups<T>(
  root: unknown,
  resourcesKey: string,
  scopesKey: string,
  itemsKey: string,
  readItem: ItemReader<T>,
  pace: Pace,
): Promise<ResourceGroup<T>[]> {
  const top = object(root, "");
  const out: ResourceGroup<T>[] = [];
  const resources = list(top[resourcesKey], `/${resourcesKey}`);
  for (let r = 0; r < resources.length; r++) {
    const path = `/${resourcesKey}/${r}`;
    const group = object(resources[r], path);
    const resource =
      group.resource === undefined || group.resource === null
        ? {}
        : object(group.resource, `${path}/resource`);
    const items: T[] = [];
    const scopes = list(group[scopesKey], `${path}/${scopesKey}`);
    for (let s = 0; s < scopes.length; s++) {
      const scopePath = `${path}/${scopesKey}/${s}`;
      const scopeGroup = object(scopes[s], scopePath);
      const scope =
        scopeGroup.scope === undefined || scopeGroup.scope === null
          ? {}
          : object(scopeGroup.scope, `${scopePath}/scope`);
      const scopeName = str(scope.name);
      const entries = list(scopeGroup[itemsKey], `${scopePath}/${itemsKey}`);
      for (let i = 0; i < entries.length; i++) {
        const itemPath = `${scopePath}/${itemsKey}/${i}`;
        items.push(readItem(object(entries[i], itemPath), scopeName, itemPath));
        if (pace.due()) await pace.yield();
      }
    }
    out.push({ resource: attributes(resource.attributes, `${path}/resource/attributes`), items });
  }
  return out;
}

function readSpan(span: Record<string, unknown>, scope: string, path: string): OtlpSpan {
  const status =
    span.status === undefined || span.status === null ? {} : object(span.status, `${path}/status`);
  return {
    traceId: jsonId(span.traceId),
    spanId: jsonId(span.spanId),
    parentSpanId: jsonId(span.parentSpanId),
    name: str(span.name),
    kind: enumValue(span.kind, SPAN_KIND_NAMES),
    startNs: toBigInt(span.startTimeUnixNano),
    endNs: toBigInt(span.endTimeUnixNano),
    attributes: attributes(span.attributes, `${path}/attributes`),
    statusCode: enumValue(status.code, STATUS_CODE_NAMES),
    statusMessage: str(status.message),
    scope,
  };
}

function readLogRecord(record: Record<string, unknown>, scope: string, path: string): OtlpLogRecord {
  return {
    timeNs: toBigInt(record.timeUnixNano),
    observedNs: toBigInt(record.observedTimeUnixNano),
    severityNumber: enumValue(record.severityNumber, {}),
    severityText: str(record.severityText),
    body: record.body === undefined || record.body === null ? null : anyValue(record.body, `${path}/body`, 0),
    attributes: attributes(record.attributes, `${path}/attributes`),
    traceId: jsonId(record.traceId),
    spanId: jsonId(record.spanId),
    eventName: str(record.eventName),
    scope,
  };
}

const SPAN_KIND_NAMES: Readonly<Record<string, number>> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};
const STATUS_CODE_NAMES: Readonly<Record<string, number>> = {
  STATUS_CODE_UNSET: 0,
  STATUS_CODE_OK: 1,
  STATUS_CODE_ERROR: 2,
};

/** OTLP/JSON sends enums as integers; names are accepted too, as protobuf's JSON mapping allows. */
function enumValue(value: unknown, names: Readonly<Record<string, number>>): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string")
    return Object.hasOwn(names, value) ? (names[value] ?? 0) : Number(value) || 0;
  return 0;
}

/** Nesting beyond this is cut to null: no attribute a person reads is deeper. */
const MAX_VALUE_DEPTH = 8;

function attributes(value: unknown, path: string): Attributes {
  const map = new Map<string, AttributeValue>();
  if (value === undefined || value === null) return map;
  list(value, path).forEach((entry, index) => {
    const keyValue = object(entry, `${path}/${index}`);
    if (typeof keyValue.key !== "string" || keyValue.key === "") return;
    map.set(
      str(keyValue.key),
      keyValue.value === undefined || keyValue.value === null
        ? null
        : anyValue(keyValue.value, `${path}/${index}/value`, 0),
    );
  });
  return map;
}

/** An OTLP/JSON AnyValue (an object whose one key names the set field) as a plain value. */
function anyValue(value: unknown, path: string, depth: number): AttributeValue {
  const any = object(value, path);
  if (depth > MAX_VALUE_DEPTH) {
    measureDepth(any, depth);
    return null;
  }
  const field = Object.keys(any)[0];
  const inner = field === undefined ? undefined : any[field];
  switch (field) {
    case "stringValue":
      return str(inner);
    case "boolValue":
      return inner === true || inner === "true";
    case "intValue":
      return int64(inner);
    case "doubleValue": {
      const number = Number(inner);
      return Number.isFinite(number) ? number : null;
    }
    case "bytesValue":
      return inner instanceof Uint8Array
        ? Buffer.from(inner).toString("base64")
        : typeof inner === "string"
          ? str(inner)
          : null;
    case "arrayValue": {
      const values = inner === null || inner === undefined ? [] : object(inner, `${path}/arrayValue`).values;
      return values === undefined || values === null
        ? []
        : list(values, `${path}/arrayValue/values`).map((item, i) =>
            anyValue(item, `${path}/arrayValue/values/${i}`, depth + 1),
          );
    }
    case "kvlistValue": {
      const values = inner === null || inner === undefined ? [] : object(inner, `${path}/kvlistValue`).values;
      const entries: Array<[string, AttributeValue]> = [];
      if (values !== undefined && values !== null) {
        list(values, `${path}/kvlistValue/values`).forEach((entry, i) => {
          const keyValue = object(entry, `${path}/kvlistValue/values/${i}`);
          if (typeof keyValue.key !== "string") return;
          entries.push([
            str(keyValue.key),
            keyValue.value === undefined || keyValue.value === null
              ? null
              : anyValue(keyValue.value, `${path}/kvlistValue/values/${i}/value`, depth + 1),
          ]);
        });
      }
      // fromEntries defines own properties: a "__proto__" key stays a key.
      return Object.fromEntries(entries);
    }
    default:
      return null;
  }
}

/** Below what is kept, a value is only measured: nesting past OTLP_LIMITS.valueDepth is a 413, as
 *  in protobuf bodies (`depth` 0 is an attribute's own value). */
function measureDepth(any: Record<string, unknown>, depth: number): void {
  if (depth >= OTLP_LIMITS.valueDepth) throw overLimit("valueDepth");
  const array = nested(any.arrayValue);
  if (array !== undefined) {
    for (const item of array) if (isObject(item)) measureDepth(item, depth + 1);
  }
  const kvlist = nested(any.kvlistValue);
  if (kvlist !== undefined) {
    for (const entry of kvlist) {
      if (isObject(entry) && isObject(entry.value)) measureDepth(entry.value, depth + 1);
    }
  }
}

/** The `values` of an arrayValue or kvlistValue, when it has a list of them. */
function nested(holder: unknown): readonly unknown[] | undefined {
  if (!isObject(holder)) return undefined;
  return Array.isArray(holder.values) ? (holder.values as readonly unknown[]) : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** OTLP/JSON ids: hex text. */
function jsonId(value: unknown): string {
  return str(value).toLowerCase();
}

/** A string field, well-formed; "" when absent or not a string. */
function str(value: unknown): string {
  return typeof value !== "string" ? "" : value.isWellFormed() ? value : value.toWellFormed();
}

function object(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw malformed(path, "an object");
  return value as Record<string, unknown>;
}

function list(value: unknown, path: string): readonly unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw malformed(path, "an array");
  return value;
}

function malformed(path: string, expected: string): AppError {
  return new AppError(
    "bad_request",
    `The body is not an OTLP export request: ${path || "the body"} must be ${expected}.`,
  );
}
