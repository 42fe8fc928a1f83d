// Decoding OTLP/HTTP export requests into the shapes of otlp.model.ts. Protobuf goes through
// the code protobufjs generated from the official opentelemetry-proto definitions (shipped by
// @opentelemetry/otlp-transformer); JSON follows the OTLP/JSON mapping (lowerCamelCase names,
// hex ids, 64-bit integers as strings or numbers). A body that is not an export request of the
// route's signal is a 400; problems of single items are left to the mapping, which rejects them.
// Every string read is made well-formed (lone surrogates become U+FFFD), as the HTTP layer does
// for JSON bodies: the stores cannot hold them.
/// <reference lib="es2024.string" />
import { createRequire } from "node:module";
import { AppError } from "../../errors.js";
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
const generated = createRequire(import.meta.url)(
  "@opentelemetry/otlp-transformer/build/src/generated/root.js",
) as GeneratedRoot;
const traceService = generated.opentelemetry.proto.collector.trace.v1;
const logsService = generated.opentelemetry.proto.collector.logs.v1;

/** The export request and response messages, for clients that encode them (tests, bench). */
export const OTLP_MESSAGES = {
  traces: {
    request: traceService.ExportTraceServiceRequest,
    response: traceService.ExportTraceServiceResponse,
  },
  logs: { request: logsService.ExportLogsServiceRequest, response: logsService.ExportLogsServiceResponse },
} as const;

export type Signal = "traces" | "logs";

export function decodeTraces(body: Buffer, encoding: OtlpEncoding): TracesExport {
  const root =
    encoding === "protobuf"
      ? decodeProtobuf(traceService.ExportTraceServiceRequest, body, "traces")
      : parseJson(body);
  const read = encoding === "protobuf" ? protobufReader : jsonReader;
  return groups(root, "resourceSpans", "scopeSpans", "spans", (span, scope, path) =>
    readSpan(span, scope, read, path),
  );
}

export function decodeLogs(body: Buffer, encoding: OtlpEncoding): LogsExport {
  const root =
    encoding === "protobuf"
      ? decodeProtobuf(logsService.ExportLogsServiceRequest, body, "logs")
      : parseJson(body);
  const read = encoding === "protobuf" ? protobufReader : jsonReader;
  return groups(root, "resourceLogs", "scopeLogs", "logRecords", (record, scope, path) =>
    readLogRecord(record, scope, read, path),
  );
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

function decodeProtobuf(type: MessageType, body: Buffer, signal: Signal): unknown {
  try {
    return type.decode(body);
  } catch (error) {
    const reason = error instanceof Error ? `: ${error.message}` : "";
    throw new AppError(
      "bad_request",
      `The body is not a protobuf-encoded OTLP Export${signal === "traces" ? "Trace" : "Logs"}ServiceRequest${reason}.`,
      { cause: error },
    );
  }
}

function parseJson(body: Buffer): unknown {
  const text = body.toString("utf8");
  if (text.trim() === "") throw new AppError("invalid_json", "The request body is empty.");
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new AppError("invalid_json", "The request body is not valid JSON.", { cause: error });
  }
}

/** How ids and 64-bit integers are spelled: bytes and Long objects, or hex and decimal text. */
interface Reader {
  id(value: unknown): string;
  nanos(value: unknown): bigint;
}

const protobufReader: Reader = {
  id: (value) => (value instanceof Uint8Array && value.length > 0 ? Buffer.from(value).toString("hex") : ""),
  nanos: (value) => toBigInt(value),
};

const jsonReader: Reader = {
  id: (value) => str(value).toLowerCase(),
  nanos: (value) => toBigInt(value),
};

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

/** Walks resource -> scope -> items, checking the envelope's shape as it goes. */
function groups<T>(
  root: unknown,
  resourcesKey: string,
  scopesKey: string,
  itemsKey: string,
  readItem: ItemReader<T>,
): ResourceGroup<T>[] {
  const top = object(root, "");
  const out: ResourceGroup<T>[] = [];
  list(top[resourcesKey], `/${resourcesKey}`).forEach((resourceEntry, r) => {
    const path = `/${resourcesKey}/${r}`;
    const group = object(resourceEntry, path);
    const resource =
      group.resource === undefined || group.resource === null
        ? {}
        : object(group.resource, `${path}/resource`);
    const items: T[] = [];
    list(group[scopesKey], `${path}/${scopesKey}`).forEach((scopeEntry, s) => {
      const scopePath = `${path}/${scopesKey}/${s}`;
      const scopeGroup = object(scopeEntry, scopePath);
      const scope =
        scopeGroup.scope === undefined || scopeGroup.scope === null
          ? {}
          : object(scopeGroup.scope, `${scopePath}/scope`);
      const scopeName = str(scope.name);
      list(scopeGroup[itemsKey], `${scopePath}/${itemsKey}`).forEach((item, i) => {
        const itemPath = `${scopePath}/${itemsKey}/${i}`;
        items.push(readItem(object(item, itemPath), scopeName, itemPath));
      });
    });
    out.push({ resource: attributes(resource.attributes, `${path}/resource/attributes`), items });
  });
  return out;
}

function readSpan(span: Record<string, unknown>, scope: string, read: Reader, path: string): OtlpSpan {
  const status =
    span.status === undefined || span.status === null ? {} : object(span.status, `${path}/status`);
  return {
    traceId: read.id(span.traceId),
    spanId: read.id(span.spanId),
    parentSpanId: read.id(span.parentSpanId),
    name: str(span.name),
    kind: enumValue(span.kind, SPAN_KIND_NAMES),
    startNs: read.nanos(span.startTimeUnixNano),
    endNs: read.nanos(span.endTimeUnixNano),
    attributes: attributes(span.attributes, `${path}/attributes`),
    statusCode: enumValue(status.code, STATUS_CODE_NAMES),
    statusMessage: str(status.message),
    scope,
  };
}

function readLogRecord(
  record: Record<string, unknown>,
  scope: string,
  read: Reader,
  path: string,
): OtlpLogRecord {
  return {
    timeNs: read.nanos(record.timeUnixNano),
    observedNs: read.nanos(record.observedTimeUnixNano),
    severityNumber: enumValue(record.severityNumber, {}),
    severityText: str(record.severityText),
    body: record.body === undefined || record.body === null ? null : anyValue(record.body, `${path}/body`, 0),
    attributes: attributes(record.attributes, `${path}/attributes`),
    traceId: read.id(record.traceId),
    spanId: read.id(record.spanId),
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

/** An AnyValue message (its one set field) as a plain value. */
function anyValue(value: unknown, path: string, depth: number): AttributeValue {
  const any = object(value, path);
  if (depth > MAX_VALUE_DEPTH) return null;
  // Generated messages name the set field of the oneof in `value`; JSON objects have one key.
  const field = typeof any.value === "string" && any.value in any ? any.value : Object.keys(any)[0];
  const inner = field === undefined ? undefined : any[field];
  switch (field) {
    case "stringValue":
      return str(inner);
    case "boolValue":
      return inner === true || inner === "true";
    case "intValue": {
      // An int64 Long: its signed high half times 2^32 plus its unsigned low half.
      const number = isLong(inner)
        ? inner.high * 0x1_0000_0000 + (inner.low >>> 0)
        : Number(typeof inner === "object" && inner !== null ? String(inner) : inner);
      return Number.isFinite(number) ? number : null;
    }
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
