// Cutting strings to limits without splitting a character: by UTF-16 length for labels, by
// UTF-8 bytes for payloads (what the limits in INGEST_LIMITS promise).

/** At most `max` UTF-16 units, never ending in half of a surrogate pair. */
export function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** At most `maxBytes` bytes of UTF-8, never ending inside a multi-byte sequence. */
export function cutUtf8(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes: most strings skip the encoding entirely.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.toString("utf8", 0, end);
}
