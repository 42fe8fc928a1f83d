// OTLP_LIMITS for OTLP/JSON bodies, checked over the text before JSON.parse builds anything:
// 10 MiB of `{},` is 3.5 million objects, and parsing them is itself the amplification. One
// pass over the characters counts containers (elements), their nesting, and the entries of every
// array named by an OTLP field (`spans`, `attributes`, `values`, …). The exact AnyValue depth is
// checked while the parsed body is walked (otlp.decode.ts); this bounds what parsing may build.
// The same pass notes where each item (span, log record) of the export's own three levels lies
// in the text, so a big body can be parsed item by item (parseJsonExport) instead of at once.
import type { Pace } from "../../lib/pace.js";
import { OTLP_LIMITS, type OtlpLimit, overLimit } from "./otlp.limits.js";

/** The caps of arrays by the OTLP/JSON field that holds them. */
const ARRAY_LIMITS: ReadonlyMap<string, OtlpLimit> = new Map<string, OtlpLimit>([
  ["resourceSpans", "resources"],
  ["resourceLogs", "resources"],
  ["scopeSpans", "scopes"],
  ["scopeLogs", "scopes"],
  ["spans", "items"],
  ["logRecords", "items"],
  ["attributes", "listEntries"],
  ["values", "listEntries"],
  ["events", "eventsPerSpan"],
  ["links", "linksPerSpan"],
]);

/** Caps counted over the whole export rather than per array. */
const EXPORT_TOTALS: ReadonlySet<OtlpLimit> = new Set<OtlpLimit>(["resources", "scopes", "items"]);

/**
 * JSON nesting an export within the caps can reach: root, resource entries, scope entries,
 * items and their attribute lists take 9 levels down to the first AnyValue; each AnyValue level
 * (a kvlistValue: value, kvlistValue, values, entry) at most 4 more.
 */
const MAX_JSON_DEPTH = 10 + 4 * OTLP_LIMITS.valueDepth;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The member names of an export's three levels: resource entries, scope entries, items. */
export type ExportPath = readonly [resources: string, scopes: string, items: string];

/** Characters scanned between pace checks. */
const SCAN_SLICE = 64 * 1024;

/** Depth (containers open, the root object counted) at which an item of the export path opens. */
const ITEM_DEPTH = 6;

/**
 * Throws the 413 of the first cap the JSON text exceeds. Text that is not JSON is let through:
 * JSON.parse answers it. `itemName` names the items ("spans", "log records"). Returns where the
 * items of `path` lie (start, end pairs, in text order), or null when some item there is not an
 * object (the walk refuses such a body anyway).
 */
export async function scanJsonExport(
  text: string,
  itemName: string,
  path: ExportPath,
  pace: Pace,
): Promise<number[] | null> {
  const totals = new Map<OtlpLimit, number>();
  // Per open container: its cap (arrays named by an OTLP field), entries so far, whether array,
  // and whether it is the export path's container at its depth.
  const limits: Array<OtlpLimit | undefined> = [];
  const counts: number[] = [];
  const arrays: boolean[] = [];
  const onPath: boolean[] = [];
  let items: number[] | null = [];
  let depth = 0;
  let elements = 0;
  let previous = 0;
  let keyStart = -1;
  let keyEnd = -1;
  let stringStart = -1;
  let stringEnd = -1;
  let afterColon = false;

  const over = (limit: OtlpLimit): never => {
    throw overLimit(limit, limit === "items" ? itemName : undefined);
  };

  for (let i = 0, nextCheck = SCAN_SLICE; i < text.length; i++) {
    if (i >= nextCheck) {
      nextCheck = i + SCAN_SLICE;
      if (pace.due()) await pace.yield();
    }
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    // A value starts in an array: one more entry of it.
    if ((previous === OPEN_ARRAY || previous === COMMA) && depth > 0 && arrays[depth - 1] === true) {
      if (c !== CLOSE_ARRAY) {
        if (depth === ITEM_DEPTH && onPath[ITEM_DEPTH - 1] === true && items !== null) {
          if (c === OPEN_OBJECT) items.push(i);
          else items = null;
        }
        const count = (counts[depth - 1] ?? 0) + 1;
        counts[depth - 1] = count;
        const limit = limits[depth - 1];
        if (limit !== undefined) {
          if (count > OTLP_LIMITS[limit]) over(limit);
          if (EXPORT_TOTALS.has(limit)) {
            const total = (totals.get(limit) ?? 0) + 1;
            if (total > OTLP_LIMITS[limit]) over(limit);
            totals.set(limit, total);
          }
        }
      }
    }
    previous = c;
    switch (c) {
      case QUOTE: {
        stringStart = i + 1;
        let end = text.indexOf('"', stringStart);
        while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
        if (end === -1) return items;
        stringEnd = end;
        i = end;
        afterColon = false;
        break;
      }
      case COLON:
        keyStart = stringStart;
        keyEnd = stringEnd;
        afterColon = true;
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY: {
        if (++elements > OTLP_LIMITS.elements) over("elements");
        if (depth >= MAX_JSON_DEPTH) over("valueDepth");
        const array = c === OPEN_ARRAY;
        const key = array && afterColon ? text.slice(keyStart, keyEnd) : undefined;
        limits[depth] = key === undefined ? undefined : ARRAY_LIMITS.get(key);
        counts[depth] = 0;
        arrays[depth] = array;
        // The path alternates object, named array: root, resources, entry, scopes, entry, items.
        onPath[depth] =
          depth === 0
            ? !array
            : onPath[depth - 1] === true &&
              (depth % 2 === 1 ? key !== undefined && key === path[(depth - 1) / 2] : !array);
        depth += 1;
        afterColon = false;
        break;
      }
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (depth > 0) depth -= 1;
        if (depth === ITEM_DEPTH && onPath[ITEM_DEPTH - 1] === true && items !== null) items.push(i + 1);
        afterColon = false;
        break;
      default:
        afterColon = false;
    }
  }
  return items;
}

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  for (let i = at - 1; i >= 0 && text.charCodeAt(i) === BACKSLASH; i--) backslashes += 1;
  return backslashes % 2 === 1;
}
