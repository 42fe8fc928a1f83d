// What every ingested record kind shares: the problems a record can have, the fields the
// pipeline settles for all kinds, and the contract a kind (requests, logs) fulfils.
import type { TSchema } from "typebox";
import type { AppRef } from "./directory.js";

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
export interface BuiltRow {
  /** Column values in the kind's column order, ready for JSON.stringify. */
  readonly values: readonly unknown[];
  /** The endpoint the record belongs to, for discovery (null when it names none). */
  readonly endpoint: { readonly method: string; readonly path: string } | null;
}

export interface RecordKind<R> {
  /** The body member holding the records, also the kind's name: `requests` or `logs`. */
  readonly name: "requests" | "logs";
  readonly table: string;
  /** Column names in the order of BuiltRow.values. */
  readonly columns: readonly string[];
  /** The contract schema of one record (validated per record, not per batch). */
  readonly schema: TSchema;
  /** Builds the row of a schema-valid record, or adds its problems and returns null. */
  build(record: R, common: CommonFields, problems: RecordProblem[]): BuiltRow | null;
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
