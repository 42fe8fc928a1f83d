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
