// W3C trace context: continue an incoming `traceparent`, or start a trace. Ids come from a
// pooled buffer of random bytes, so a request costs a slice, not a system call.
import { randomFillSync } from "node:crypto";

/** Random bytes turned into hex in one call; a request takes a 48-digit slice (V8 keeps slices
 *  as views into the parent string, so this costs no copy). */
const POOL_BYTES = 6144;
const pool = Buffer.alloc(POOL_BYTES);
let hexPool = "";
let offset = 0;

const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

/** 48 random hex digits: a trace id (the first 32) and a span id (the last 16), neither all zero. */
export function newIds(): string {
  for (;;) {
    if (offset + 48 > hexPool.length) {
      randomFillSync(pool);
      hexPool = pool.toString("hex");
      offset = 0;
    }
    const hex = hexPool.slice(offset, offset + 48);
    offset += 48;
    // All-zero ids are invalid in W3C trace context (odds of 2^-64, but cheap to rule out).
    if (!hex.startsWith(ZERO_TRACE) && !hex.endsWith(ZERO_SPAN)) return hex;
  }
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The trace id of a valid `traceparent` header (version 00 or a later, compatible one). */
export function traceIdFrom(header: string | null | undefined): string | undefined {
  if (typeof header !== "string") return undefined;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  if (match === null || match[1] === "ff") return undefined;
  const traceId = match[2] as string;
  if (/^0+$/.test(traceId) || /^0+$/.test(match[3] as string)) return undefined;
  return traceId;
}
