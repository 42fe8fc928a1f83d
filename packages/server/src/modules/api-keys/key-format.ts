// The shape of an API key: `sl_` + 40 random bytes in base62. Only its SHA-256 is stored; the
// first 12 characters are kept as a prefix so people can tell their keys apart.
import { randomBase62, sha256Hex } from "../../lib/ids.js";

export const KEY_PREFIX_LENGTH = 12;
const KEY_SHAPE = /^sl_[0-9A-Za-z]{40,80}$/;

export interface NewKey {
  readonly key: string;
  readonly prefix: string;
  readonly hash: string;
}

export function generateKey(): NewKey {
  const key = `sl_${randomBase62(40)}`;
  return { key, prefix: key.slice(0, KEY_PREFIX_LENGTH), hash: sha256Hex(key) };
}

/** Cheap shape check so garbage never costs a store lookup. */
export function looksLikeKey(raw: string): boolean {
  return KEY_SHAPE.test(raw);
}
