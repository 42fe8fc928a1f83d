// What every ingested record kind shares: the problems a record can have, the fields the
// pipeline settles for all kinds, and the contracts a kind fulfils: a row kind builds one table's
// rows; a record kind (requests, logs, spans as posted to /ingest) also reads them from the wire.
import { INGEST_LIMITS } from "@sightline/contracts";
import type { TSchema } from "typebox";
import type { EventsTable } from "../../stores/events/index.js";
import type { AppRef } from "./directory.js";
import { cutChars } from "./text.js";

/** One problem of one record; `path` is a JSON Pointer relative to the record ("" = itself). */
export interface RecordProblem {
  readonly path: string;
  readonly message: string;
}

/** Fields every kind has, already checked and normalised by the pipeline. */
export interface CommonFields {
  readonly id: string;
  readonly projectId: string;
  readonly app: AppRef;
  readonly timestampMs: number;
  readonly environment: string;
  /** Days the row is kept: its project's retention for the kind (docs/adr/0023). */
  readonly retentionDays: number;
  /** Days the rollup rows fed by the row are kept: its project's rollup retention; 0 the
   *  server's days (api_requests only; docs/adr/0023). */
  readonly rollupDays: number;
  /** `YYYY-MM-DD`, the UTC day the batch arrived: one value for the whole batch. */
  readonly storedOn: string;
}

/** The columns the pipeline fills from the record's CommonFields (every events table has them but
 *  `rollup_days`, which only api_requests, the rollups' source, has). */
export type CommonColumn =
  | "id"
  | "project_id"
  | "app_id"
  | "timestamp"
  | "environment"
  | "retention_days"
  | "rollup_days"
  | "stored_on";

/** A record turned into one row of its table. */
export interface BuiltRow<Column extends string = string> {
  /** A value for every other column of the kind's table; serialised in the declared order. */
  readonly row: Readonly<Record<Exclude<Column, CommonColumn>, unknown>>;
  /** The endpoint the record belongs to, for discovery (null when it names none). */
  readonly endpoint: { readonly method: string; readonly path: string } | null;
}

/** The kinds, by the body member holding their records (`{"spans": [...]}`). */
export type RecordKindName = "requests" | "logs" | "spans";

/** How rows of one table are built from one kind of input. */
export interface RowKind<I, Column extends string = string> {
  /** The kind's name: the body member holding its records (`{"spans": [...]}`), the table's writer. */
  readonly name: RecordKindName;
  /** The table the rows go to, as declared once in stores/events/tables. */
  readonly table: EventsTable<Column>;
  /** Builds the row of an input (its fields settled and checked already), or adds its problems
   *  and returns null. */
  build(input: I, problems: RecordProblem[]): BuiltRow<Column> | null;
  /**
   * The row's id when the input carries an identity of its own (an OTLP span: trace and span
   * id), so that an input sent again makes the same row and a resent batch can be recognised
   * as stored (ADR 0012). Absent: ids are random.
   */
  readonly rowId?: (input: I, timestampMs: number) => string;
}

/** A row kind whose inputs are records as clients post them: validated against a schema first. */
export interface RecordKind<R, Column extends string = string> extends RowKind<R, Column> {
  /** The contract schema of one record (validated per record, not per batch). */
  readonly schema: TSchema;
  /** Record fields the schema declares: any other field is ignored and reported. */
  readonly fields: ReadonlySet<string>;
}

/**
 * An input the server built itself (from an OTLP export): typed by construction, so no schema
 * pass, and already placed: its app resolved from the key's apps, its time read.
 */
export interface PlacedInput {
  readonly app: AppRef;
  readonly timestampMs: number;
  /** As sent; the pipeline normalises and checks it like a posted record's. */
  readonly environment: string;
}

/** The field names a record schema declares. */
export function declaredFields(schema: TSchema): ReadonlySet<string> {
  const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  return new Set(Object.keys(properties));
}

/** A W3C trace or span id in stored form: lower-case hex, not all zeros; "" when absent. */
export function readHexId(
  value: string | undefined,
  digits: 16 | 32,
  field: string,
  problems: RecordProblem[],
): string {
  if (value === undefined || value === "") return "";
  if (value.length !== digits || !isHexNotAllZero(value)) {
    problems.push({
      path: `/${field}`,
      message: `must be ${digits} hexadecimal digits, not all zero (W3C ${digits === 32 ? "trace-id" : "span-id"})`,
    });
    return "";
  }
  return value.toLowerCase();
}

/** One pass over the characters: three ids per span are checked on the hot path. */
function isHexNotAllZero(text: string): boolean {
  let nonZero = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) nonZero ||= code !== 0x30;
    else if ((code >= 0x61 && code <= 0x66) || (code >= 0x41 && code <= 0x46)) nonZero = true;
    else return false;
  }
  return nonZero;
}

/** JSON Pointer escaping of one segment. */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Shared by every record without attributes; only ever serialised, never changed. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});

/** Attribute values as text (`3`, `true`, never "" for 0/false); bad keys or values reject. */
export function readAttributes(
  attributes: Readonly<Record<string, string | number | boolean>> | undefined,
  problems: RecordProblem[],
): Record<string, string> {
  if (attributes === undefined) return NO_ATTRIBUTES;
  // Read once per ingested span or log record: a plain object filled in place (V8 keeps it in
  // fast mode, which serialises faster), no intermediate arrays.
  const out: Record<string, string> = {};
  const before = problems.length;
  let count = 0;
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    if (++count > INGEST_LIMITS.attributeCount) {
      // Too many keys is the one problem worth saying: those of single keys are dropped.
      problems.length = before;
      problems.push({
        path: "/attributes",
        message: `must have at most ${INGEST_LIMITS.attributeCount} keys`,
      });
      return {};
    }
    const value = attributes[key];
    if (key === "" || key.length > INGEST_LIMITS.attributeKeyLength) {
      problems.push({
        path: `/attributes/${escapePointer(key)}`,
        message: `keys must be 1–${INGEST_LIMITS.attributeKeyLength} characters`,
      });
    } else if (typeof value === "number" && !Number.isFinite(value)) {
      problems.push({ path: `/attributes/${escapePointer(key)}`, message: "must be a finite number" });
    } else {
      setOwn(
        out,
        key,
        typeof value === "string" ? cutChars(value, INGEST_LIMITS.attributeValueLength) : String(value),
      );
    }
  }
  return out;
}

/** Sets an own property; `__proto__` is defined rather than assigned, so it stays a key. */
export function setOwn(target: Record<string, string>, key: string, value: string): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
