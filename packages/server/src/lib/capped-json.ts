// Reading JSON under item caps (ingest bodies; every other JSON body for its depth): one pass over the bytes checks the structure and counts
// values per level and nesting without building anything (a 10 MiB body of `[{},{},…]` is
// refused after a few KB of it), then an envelope's records are parsed one by one in paced
// slices, so a big body never holds the event loop. Not here: decompression and byte size
// (modules/ingest/ingest.body.ts), each record's schema and rules (the ingest pipeline).
import { toWellFormed } from "../http/well-formed.js";
import { createPace, type Pace } from "./pace.js";

/** What a JSON text may contain; each is checked while scanning, before anything is parsed. */
export interface JsonCaps {
  /** Nesting of arrays and objects (the root container is 1). */
  readonly depth: number;
  /** Values directly inside the root container. */
  readonly topLevelValues: number;
  /** Values two levels down (the records of `{"requests": [...]}`), over the whole text. */
  readonly records: number;
  /** Values inside one of those records, nested ones included. */
  readonly recordValues: number;
}

export type JsonCap = keyof JsonCaps;

/** A cap was exceeded; `message` says which, in words a client can act on. */
export class JsonCapError extends Error {
  constructor(
    readonly cap: JsonCap,
    message: string,
  ) {
    super(message);
    this.name = "JsonCapError";
  }
}

/** The text is not JSON (or is empty). */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly empty = false,
  ) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

// Containers on the stack, and what the scanner expects next.
const OBJECT = 1;
const ARRAY = 2;
const Expect = {
  Value: 0,
  ValueOrClose: 1,
  Key: 2,
  KeyOrClose: 3,
  Colon: 4,
  CommaOrClose: 5,
  End: 6,
} as const;
type Expected = (typeof Expect)[keyof typeof Expect];

/** Bytes of a scan between pace checks: about 0.1–0.3 ms of scanning. */
const SCAN_SLICE_BYTES = 64 * 1024;
/** Up to these, an envelope is parsed in one JSON.parse (at most a few ms even for values in
 *  objects of hundreds of keys, ~1.5 µs each); beyond, record by record in paced slices. */
const WHOLE_PARSE_BYTES = 1024 * 1024;
const WHOLE_PARSE_VALUES = 10_000;

/**
 * A resumable, allocation-free pass over UTF-8 JSON: checks brackets, colons and commas (not the
 * inside of scalars and strings, which JSON.parse checks later), enforces the caps, and notes
 * where the records of an envelope (`{"member": [record, ...]}`) start and end.
 */
class JsonScanner {
  /** Where the JSON starts: after a UTF-8 byte order mark, which is not part of it. */
  readonly start: number;
  private position: number;
  private depth = 0;
  private readonly stack: Uint8Array;
  private expect: Expected = Expect.Value;
  private topLevel = 0;
  private records = 0;
  private recordValues = 0;
  /** Every value of the text, counted. */
  values = 0;
  private recordStart = 0;
  private rootIsObject = false;
  private memberIsArray = false;
  /** Start and end of the root object's first key token, quotes included. */
  keyStart = -1;
  keyEnd = -1;
  /** Start, end pairs of every value two levels down, in order. */
  readonly spans: number[] = [];

  constructor(
    private readonly bytes: Buffer,
    private readonly caps: JsonCaps,
  ) {
    this.start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    this.position = this.start;
    this.stack = new Uint8Array(caps.depth + 1);
  }

  /** An envelope with one member whose value is an array: its records can be parsed apart. */
  get isEnvelope(): boolean {
    return this.rootIsObject && this.topLevel === 1 && this.memberIsArray;
  }

  /** Scans up to `limit` (a token that starts before it is finished); true once at the end. */
  scan(limit: number): boolean {
    const { bytes } = this;
    const end = bytes.length;
    let i = this.position;
    while (i < end && i < limit) {
      const byte = bytes[i] as number;
      if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) {
        i++;
        continue;
      }
      const { expect } = this;
      if (expect === Expect.Value || expect === Expect.ValueOrClose) {
        i = byte === 0x5d && expect === Expect.ValueOrClose ? this.close(byte, i) : this.value(byte, i);
      } else if (expect === Expect.Key || expect === Expect.KeyOrClose) {
        i = byte === 0x7d && expect === Expect.KeyOrClose ? this.close(byte, i) : this.key(byte, i);
      } else if (expect === Expect.Colon && byte === 0x3a) {
        this.expect = Expect.Value;
        i++;
      } else if (expect === Expect.CommaOrClose && byte === 0x2c) {
        this.expect = this.stack[this.depth] === OBJECT ? Expect.Key : Expect.Value;
        i++;
      } else if (expect === Expect.CommaOrClose && (byte === 0x7d || byte === 0x5d)) {
        i = this.close(byte, i);
      } else {
        throw unexpected(i);
      }
    }
    this.position = i;
    if (i < end) return false;
    if (this.expect !== Expect.End) {
      throw this.expect === Expect.Value && this.depth === 0
        ? new JsonSyntaxError("The body holds no JSON value.", true)
        : new JsonSyntaxError("The JSON text ends before its last value does.");
    }
    return true;
  }

  private key(byte: number, i: number): number {
    if (byte !== 0x22) throw unexpected(i);
    const after = this.stringEnd(i);
    if (this.depth === 1 && this.topLevel === 0) {
      this.keyStart = i;
      this.keyEnd = after;
    }
    this.expect = Expect.Colon;
    return after;
  }

  private value(byte: number, i: number): number {
    const { depth, caps } = this;
    this.values++;
    if (depth === 1) {
      if (++this.topLevel > caps.topLevelValues) {
        throw new JsonCapError(
          "topLevelValues",
          `The top level of the body holds more than ${caps.topLevelValues} values`,
        );
      }
    } else if (depth === 2) {
      if (++this.records > caps.records) {
        throw new JsonCapError("records", `A batch holds at most ${caps.records} records`);
      }
      this.recordStart = i;
      this.recordValues = 0;
    } else if (depth > 2 && ++this.recordValues > caps.recordValues) {
      throw new JsonCapError(
        "recordValues",
        `Record ${this.records - 1} holds more than ${caps.recordValues} JSON values (fields, header ` +
          "and attribute entries and everything nested in them)",
      );
    }
    if (byte === 0x7b || byte === 0x5b) {
      if (depth + 1 > caps.depth) {
        throw new JsonCapError("depth", `The body nests arrays and objects deeper than ${caps.depth} levels`);
      }
      if (depth === 0) this.rootIsObject = byte === 0x7b;
      else if (depth === 1 && this.topLevel === 1) this.memberIsArray = byte === 0x5b;
      this.depth = depth + 1;
      this.stack[this.depth] = byte === 0x7b ? OBJECT : ARRAY;
      this.expect = byte === 0x7b ? Expect.KeyOrClose : Expect.ValueOrClose;
      return i + 1;
    }
    const after = byte === 0x22 ? this.stringEnd(i) : this.scalarEnd(i);
    this.completed(after);
    return after;
  }

  private close(byte: number, i: number): number {
    if (this.stack[this.depth] !== (byte === 0x7d ? OBJECT : ARRAY)) throw unexpected(i);
    this.depth -= 1;
    this.completed(i + 1);
    return i + 1;
  }

  /** A value ending at `after` is complete at the current depth. */
  private completed(after: number): void {
    if (this.depth === 2) this.spans.push(this.recordStart, after);
    this.expect = this.depth === 0 ? Expect.End : Expect.CommaOrClose;
  }

  /** The index after the string token starting at `i` (an escaped quote does not end it). */
  private stringEnd(i: number): number {
    const { bytes } = this;
    // indexOf (memchr) jumps from quote to quote; a quote's run of backslashes says whether it
    // ends the string. Measured faster than a byte loop even for the short strings of records.
    let from = i + 1;
    for (;;) {
      const quote = bytes.indexOf(0x22, from);
      if (quote === -1) throw new JsonSyntaxError("The JSON text ends inside a string.");
      let backslashes = 0;
      while (bytes[quote - 1 - backslashes] === 0x5c) backslashes++;
      if (backslashes % 2 === 0) return quote + 1;
      from = quote + 1;
    }
  }

  /** The index after a number, `true`, `false` or `null` starting at `i` (checked by JSON.parse). */
  private scalarEnd(i: number): number {
    const { bytes } = this;
    let j = i;
    for (;;) {
      const byte = bytes[j];
      const scalar =
        byte !== undefined &&
        ((byte >= 0x30 && byte <= 0x39) ||
          (byte >= 0x61 && byte <= 0x7a) ||
          (byte >= 0x41 && byte <= 0x5a) ||
          byte === 0x2d ||
          byte === 0x2b ||
          byte === 0x2e);
      if (!scalar) break;
      j++;
    }
    if (j === i) throw unexpected(i);
    return j;
  }
}

function unexpected(at: number): JsonSyntaxError {
  return new JsonSyntaxError(`Unexpected character at byte ${at} of the JSON text.`);
}

/** Checks a whole (small) JSON text against `caps` at once; throws JsonCapError or JsonSyntaxError. */
export function checkJson(bytes: Buffer, caps: JsonCaps): void {
  new JsonScanner(bytes, caps).scan(bytes.length);
}

/**
 * Parses a body of UTF-8 JSON under `caps`, every string made well-formed (lone surrogates become
 * U+FFFD). An envelope's records are parsed one at a time, yielding to the event loop between
 * slices; any other body (bounded by the same caps) is parsed at once.
 */
export async function parseCappedJson(
  bytes: Buffer,
  caps: JsonCaps,
  pace: Pace = createPace(),
): Promise<unknown> {
  const scanner = new JsonScanner(bytes, caps);
  for (let limit = SCAN_SLICE_BYTES; !scanner.scan(limit); limit += SCAN_SLICE_BYTES) {
    if (pace.due()) await pace.yield();
  }
  // A small body parses in one call faster than record by record, and well within a slice.
  const small = bytes.length <= WHOLE_PARSE_BYTES && scanner.values <= WHOLE_PARSE_VALUES;
  if (small || !scanner.isEnvelope) return parseText(bytes.toString("utf8", scanner.start));
  const member = parseText(bytes.toString("utf8", scanner.keyStart, scanner.keyEnd)) as string;
  const { spans } = scanner;
  const records = new Array<unknown>(spans.length / 2);
  for (let r = 0; r < records.length; r++) {
    records[r] = parseText(bytes.toString("utf8", spans[2 * r], spans[2 * r + 1]));
    if (pace.due()) await pace.yield();
  }
  // A computed key defines an own property: a `__proto__` member stays a member.
  return { [member]: records };
}

/** A JSON text can only carry a lone surrogate as a `\uD800`–`\uDFFF` escape. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

function parseText(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JsonSyntaxError(error instanceof Error ? error.message : String(error));
  }
  return SURROGATE_ESCAPE.test(text) ? toWellFormed(value) : value;
}
