// Identifiers and secrets: UUIDs for rows, random tokens with their stored SHA-256 digests.
import { createHash, randomBytes, randomUUID } from "node:crypto";

export function newId(): string {
  return randomUUID();
}

/** SHA-256 hex digest of text (UTF-8) or bytes. */
export function sha256Hex(value: string | Uint8Array): string {
  return createHash("sha256").update(value).digest("hex");
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Base62 text of `byteCount` random bytes (big-endian digits, no padding, no bias). */
export function randomBase62(byteCount: number): string {
  let value = BigInt(`0x${randomBytes(byteCount).toString("hex")}`);
  const digits: string[] = [];
  const fullLength = Math.ceil((byteCount * 8) / Math.log2(62));
  while (value > 0n) {
    digits.push(BASE62[Number(value % 62n)] as string);
    value /= 62n;
  }
  return digits.reverse().join("").padStart(fullLength, "0");
}

let lastOrderedMs = -1;
let orderedCounter = 0;

/**
 * A version-7 UUID for a row written at `ms` whose ids must sort like their writes: within
 * one process, ids of the same millisecond carry a rising 12-bit counter (RFC 9562, method 1).
 */
export function newOrderedId(ms: number): string {
  let at = Math.trunc(ms);
  if (at <= lastOrderedMs) {
    orderedCounter += 1;
    at = lastOrderedMs;
    if (orderedCounter > 0xfff) {
      at += 1;
      orderedCounter = 0;
    }
  } else {
    orderedCounter = 0;
  }
  lastOrderedMs = at;
  const random = randomUUID().replace(/-/g, "");
  const hex = at.toString(16).padStart(12, "0") + (0x7000 | orderedCounter).toString(16) + random.slice(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
