// What every ingested record kind shares: the problems a record can have, the fields the
// pipeline settles for all kinds, and the contract a kind (requests, logs, spans) fulfils.
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
  /** `YYYY-MM-DD hh:mm:ss.sss` UTC, as the events store reads it. */
  readonly timestamp: string;
  readonly environment: string;
}

/** A record turned into one row of its table. */
export interface BuiltRow<Column extends string = string> {
  /** A value for every column of the kind's table; serialised in the declared column order. */
  readonly row: Readonly<Record<Column, unknown>>;
  /** The endpoint the record belongs to, for discovery (null when it names none). */
  readonly endpoint: { readonly method: string; readonly path: string } | null;
}

/** The kinds, by the body member holding their records (`{"spans": [...]}`). */
export type RecordKindName = "requests" | "logs" | "spans";

export interface RecordKind<R, Column extends string = string> {
  /** The body member holding the records, also the kind's name. */
  readonly name: RecordKindName;
  /** The table the rows go to, as declared once in stores/events/tables. */
  readonly table: EventsTable<Column>;
  /** The contract schema of one record (validated per record, not per batch). */
  readonly schema: TSchema;
  /** Record fields the schema declares: any other field is ignored and reported. */
  readonly fields: ReadonlySet<string>;
  /** Builds the row of a schema-valid record, or adds its problems and returns null. */
  build(record: R, common: CommonFields, problems: RecordProblem[]): BuiltRow<Column> | null;
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
  const lower = value.toLowerCase();
  if (lower.length !== digits || !/^[0-9a-f]+$/.test(lower) || /^0+$/.test(lower)) {
    problems.push({
      path: `/${field}`,
      message: `must be ${digits} hexadecimal digits, not all zero (W3C ${digits === 32 ? "trace-id" : "span-id"})`,
    });
    return "";
  }
  return lower;
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
  const entries = Object.entries(attributes);
  if (entries.length > INGEST_LIMITS.attributeCount) {
    problems.push({
      path: "/attributes",
      message: `must have at most ${INGEST_LIMITS.attributeCount} keys`,
    });
    return {};
  }
  const out: Array<[string, string]> = [];
  for (const [key, value] of entries) {
    if (key === "" || key.length > INGEST_LIMITS.attributeKeyLength) {
      problems.push({
        path: `/attributes/${escapePointer(key)}`,
        message: `keys must be 1–${INGEST_LIMITS.attributeKeyLength} characters`,
      });
    } else if (typeof value === "number" && !Number.isFinite(value)) {
      problems.push({ path: `/attributes/${escapePointer(key)}`, message: "must be a finite number" });
    } else {
      out.push([
        key,
        typeof value === "string" ? cutChars(value, INGEST_LIMITS.attributeValueLength) : String(value),
      ]);
    }
  }
  return Object.fromEntries(out);
}
