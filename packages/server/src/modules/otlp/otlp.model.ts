// The OTLP export requests as Sightline reads them, whatever the encoding: resources with their
// attributes, spans and log records with ids in lower-case hex and times in Unix nanoseconds.
// Only the fields Sightline uses are kept; both decoders (protobuf, JSON) produce these shapes.

/** An OTLP AnyValue, reduced: scalars stay scalars, bytes become base64 text. */
export type AttributeValue =
  string | number | boolean | null | readonly AttributeValue[] | { readonly [key: string]: AttributeValue };

export type Attributes = ReadonlyMap<string, AttributeValue>;

/** Span kinds as numbered by the OTLP proto (`SPAN_KIND_SERVER` = 2). */
export const SPAN_KIND = {
  UNSPECIFIED: 0,
  INTERNAL: 1,
  SERVER: 2,
  CLIENT: 3,
  PRODUCER: 4,
  CONSUMER: 5,
} as const;

export interface OtlpSpan {
  /** 32 lower-case hex digits; "" when missing. */
  readonly traceId: string;
  /** 16 lower-case hex digits; "" when missing. */
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  /** Unix nanoseconds; 0n when missing. */
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: Attributes;
  /** 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly statusMessage: string;
  /** The instrumentation scope that produced the span. */
  readonly scope: string;
}

export interface OtlpLogRecord {
  readonly timeNs: bigint;
  readonly observedNs: bigint;
  /** 0 = unspecified, 1–24 as in the OTLP proto. */
  readonly severityNumber: number;
  readonly severityText: string;
  readonly body: AttributeValue;
  readonly attributes: Attributes;
  readonly traceId: string;
  readonly spanId: string;
  readonly eventName: string;
  readonly scope: string;
}

export interface ResourceGroup<T> {
  readonly resource: Attributes;
  readonly items: readonly T[];
}

export type TracesExport = readonly ResourceGroup<OtlpSpan>[];
export type LogsExport = readonly ResourceGroup<OtlpLogRecord>[];

/** Which encoding a request came in, so the answer goes back in the same. */
export type OtlpEncoding = "protobuf" | "json";
