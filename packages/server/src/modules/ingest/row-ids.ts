// Row ids: UUIDv7 whose 48-bit time field is the record's own timestamp, so an id alone locates
// its row through the (project_id, timestamp, id) sort key, and ids order like timestamps. The
// other 74 bits are random, or derived from an identity the input carries (an OTLP span's trace
// and span ids), so that the same input sent again makes the same row id.
import { hash, randomFillSync } from "node:crypto";

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
/** Random bytes drawn in bulk: one getrandom call per 409 ids instead of one per id. */
const pool = Buffer.allocUnsafe(4096);
let offset = pool.length;

/** A version-7 UUID for a record at `ms` (epoch milliseconds, 0 .. 2^48-1). */
export function uuidV7At(ms: number): string {
  if (offset + 10 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const o = offset;
  offset += 10;
  return uuidV7Of(ms, pool, o);
}

/** The version-7 UUID of a record at `ms` whose other bits come from `identity` (SHA-256): the
 *  same identity at the same time always gives the same id. */
export function uuidV7Derived(ms: number, identity: string): string {
  return uuidV7Of(ms, hash("sha256", identity, "buffer"), 0);
}

/** `ms` in the time field, version and variant set, the rest from r[o .. o+9]. */
function uuidV7Of(ms: number, r: Uint8Array, o: number): string {
  const whole = Math.trunc(ms);
  const high = Math.floor(whole / 0x1_0000_0000);
  const low = whole >>> 0;
  return (
    `${HEX[(high >>> 8) & 0xff]}${HEX[high & 0xff]}${HEX[low >>> 24]}${HEX[(low >>> 16) & 0xff]}-` +
    `${HEX[(low >>> 8) & 0xff]}${HEX[low & 0xff]}-` +
    `${HEX[0x70 | ((r[o] as number) & 0x0f)]}${HEX[r[o + 1] as number]}-` +
    `${HEX[0x80 | ((r[o + 2] as number) & 0x3f)]}${HEX[r[o + 3] as number]}-` +
    `${HEX[r[o + 4] as number]}${HEX[r[o + 5] as number]}${HEX[r[o + 6] as number]}` +
    `${HEX[r[o + 7] as number]}${HEX[r[o + 8] as number]}${HEX[r[o + 9] as number]}`
  );
}

/** The epoch milliseconds a version-7 UUID carries. */
export function uuidV7Time(id: string): number {
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
