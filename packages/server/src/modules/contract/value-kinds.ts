// What a single observed value looks like, without keeping it: string formats (uuid, date-time,
// date, email, uri, ipv4), the kinds of path and query parameter text, and whether a value is safe
// to keep as an example (nothing that looks like a secret, an e-mail, a card number or a token).

/** String formats the inference recognises, most specific first. */
export const STRING_FORMATS = ["uuid", "date-time", "date", "email", "ipv4", "uri"] as const;
export type StringFormat = (typeof STRING_FORMATS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const EMAIL =
  /^[^\s@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s]+$/;

/** The formats `value` satisfies, as a bit set over STRING_FORMATS (bit i: STRING_FORMATS[i]). */
export function formatBits(value: string): number {
  if (value.length < 7 || value.length > 2048) return 0;
  let bits = 0;
  if (value.length === 36 && UUID.test(value)) bits |= 1 << 0;
  if (value.length >= 20 && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) bits |= 1 << 1;
  if (value.length === 10 && DATE.test(value)) bits |= 1 << 2;
  if (value.includes("@") && EMAIL.test(value)) bits |= 1 << 3;
  if (value.length <= 15 && IPV4.test(value)) bits |= 1 << 4;
  if (value.includes("://") && URI.test(value)) bits |= 1 << 5;
  return bits;
}

/** Kinds of parameter text (path segments, query values), narrowest first. */
export const TEXT_KINDS = ["integer", "number", "boolean", "uuid", "date-time", "date", "string"] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

const INTEGER_TEXT = /^-?\d{1,15}$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** The narrowest kind of a parameter's text. */
export function textKind(text: string): TextKind {
  if (INTEGER_TEXT.test(text)) return "integer";
  if (NUMBER_TEXT.test(text)) return "number";
  if (text === "true" || text === "false") return "boolean";
  const bits = formatBits(text);
  if (bits & (1 << 0)) return "uuid";
  if (bits & (1 << 1)) return "date-time";
  if (bits & (1 << 2)) return "date";
  return "string";
}

/** The JSON Schema of parameter text every one of whose values was of one of `kinds`. */
export function textKindSchema(kinds: readonly TextKind[]): Record<string, unknown> {
  const set = new Set(kinds);
  if (set.size === 0) return { type: "string" };
  if (set.size === 1 || (set.size === 2 && set.has("integer") && set.has("number"))) {
    const only = set.has("number") ? "number" : (kinds[0] as TextKind);
    switch (only) {
      case "integer":
      case "number":
      case "boolean":
        return { type: only };
      case "uuid":
      case "date-time":
      case "date":
        return { type: "string", format: only };
      case "string":
        return { type: "string" };
    }
  }
  return { type: "string" };
}

/** Field names whose values are never kept, whatever they look like. */
const SENSITIVE_NAME = /pass|secret|token|auth|key|card|cvv|cvc|iban|ssn|session|cookie|signature|pin$|otp/i;
const CARD_DIGITS = /^(?:\d[ -]?){13,19}$/;
const JWT = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/;
const OPAQUE = /^[A-Za-z0-9+/_=.-]{20,}$/;
const HEXLIKE = /^[0-9a-f]{16,}$/i;

/**
 * Whether a value may be kept as an example under the redaction rules: short strings and finite
 * numbers only, of fields whose name says nothing secret, that do not look like an e-mail, a card
 * number, a JWT, a long opaque token or a digest, and carry no "[REDACTED]" mask.
 */
export function isSafeExample(name: string, value: unknown): boolean {
  if (SENSITIVE_NAME.test(name)) return false;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value === "boolean") return true;
  if (typeof value !== "string") return false;
  if (value.length === 0 || value.length > 40) return false;
  if (value.includes("@") || value.toUpperCase().includes("REDACTED") || value.includes("*")) return false;
  if (CARD_DIGITS.test(value) || JWT.test(value) || HEXLIKE.test(value)) return false;
  if (OPAQUE.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value)) return false;
  if (/^(sk|pk|rk|ghp|xox[abp])[-_]/i.test(value)) return false;
  return true;
}
