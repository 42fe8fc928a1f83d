// The shape of our secrets: a kind marker (`sl_` for API keys, `sl_pat_` for personal access
// tokens) + 40 random bytes in base62. Only its SHA-256 is stored; the first characters are kept
// as a prefix so people can tell their secrets apart.
import { randomBase62, sha256Hex } from "../../lib/ids.js";

export const KEY_PREFIX_LENGTH = 12;
/** Characters of the random part a prefix shows, whatever the marker's length. */
const PREFIX_RANDOM_CHARS = KEY_PREFIX_LENGTH - "sl_".length;

export interface NewKey {
  readonly key: string;
  readonly prefix: string;
  readonly hash: string;
}

/** A new secret starting with `marker`, its display prefix and the digest to store. */
export function generateSecret(marker: string): NewKey {
  const key = `${marker}${randomBase62(40)}`;
  return { key, prefix: key.slice(0, marker.length + PREFIX_RANDOM_CHARS), hash: hashSecret(key) };
}

/** The stored digest of a secret: a fast hash is enough for 320 random bits. */
export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}

export function generateKey(): NewKey {
  return generateSecret("sl_");
}

/** Cheap shape check so garbage never costs a store lookup. */
export function looksLikeKey(raw: string): boolean {
  return looksLikeSecret(raw, "sl_");
}

/** The same check for a secret of another kind: `marker` + 40–80 base62 characters. */
export function looksLikeSecret(raw: string, marker: string): boolean {
  return raw.startsWith(marker) && /^[0-9A-Za-z]{40,80}$/.test(raw.slice(marker.length));
}
