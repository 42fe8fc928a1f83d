// Error fingerprints: which error logs are "the same error" (exception type, message with its
// variable parts masked, top in-app stack frames), computed once at ingest into api_logs.fingerprint.
import { createHash } from "node:crypto";

/** Levels whose records are errors worth grouping; the rest get no fingerprint. */
const ERROR_LEVELS: ReadonlySet<string> = new Set(["ERROR", "CRITICAL"]);
/** Frames kept: enough to tell two throw sites apart, few enough that a refactor below them does not split a group. */
const TOP_FRAMES = 3;
/** Longest normalised message kept in the fingerprint: the tail of long messages is usually data. */
const MESSAGE_CHARS = 240;

export interface FingerprintInput {
  readonly level: string;
  readonly message: string;
  /** The SDK's `error_type` attribute (the exception's class name), when sent. */
  readonly errorType?: string | undefined;
  /** The record's payload: the stack for SDK error logs, JSON (maybe holding a stack) for logger calls. */
  readonly payload: string;
}

// Order matters: a uuid or hex run must be masked before its digits are.
const MASKS: ReadonlyArray<readonly [RegExp, string]> = [
  [/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, "<str>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"],
  [/\b0x[0-9a-f]+\b/gi, "<hex>"],
  // Hex ids (object ids, hashes, trace ids): 8+ hex characters with at least one digit.
  [/\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi, "<hex>"],
  [/\d+(?:\.\d+)?/g, "<n>"],
];

/** The message with its variable parts (quoted values, uuids, hex, numbers) masked and blanks collapsed. */
export function normaliseErrorMessage(message: string): string {
  let out = message;
  for (const [pattern, mask] of MASKS) out = out.replace(pattern, mask);
  return out.replace(/\s+/g, " ").trim().slice(0, MESSAGE_CHARS);
}

/** `TypeError: x` → `TypeError`: the class name a thrown error's message starts with, if any. */
export function errorTypeOf(message: string, declared?: string): string {
  if (declared !== undefined && declared.trim() !== "") return declared.trim();
  const match = /^((?:[A-Za-z_$][\w$.]*)?(?:Error|Exception|Fault))(?::|$)/.exec(message);
  return match?.[1] ?? "";
}

/** The stack text in a payload: itself, or the `stack` of a JSON object (a logger's `err`). */
function stackText(payload: string): string {
  const trimmed = payload.trimStart();
  if (!trimmed.startsWith("{")) return payload;
  try {
    const stacks: string[] = [];
    JSON.parse(trimmed, (key, value: unknown) => {
      if (key === "stack" && typeof value === "string") stacks.push(value);
      return value;
    });
    return stacks[0] ?? "";
  } catch {
    return "";
  }
}

/**
 * The top in-app frames of a V8 stack as `function@file` (no line or column: an edit above the
 * throw site must not split the group; the last two path segments: hosts deploy to different
 * directories). Dependencies and runtime internals are not the app's and are skipped.
 */
export function inAppFrames(payload: string, limit = TOP_FRAMES): string[] {
  const frames: string[] = [];
  for (const line of stackText(payload).split("\n")) {
    const match = /^\s*at (?:(.+?) \()?(.+?)(?::\d+)?(?::\d+)?\)?\s*$/.exec(line);
    if (match === null) continue;
    const location = (match[2] ?? "").replace(/^file:\/\//, "");
    if (/node_modules|^node:|^internal\/|^<anonymous>$|^native$/.test(location)) continue;
    const file = location.split(/[\\/]/).slice(-2).join("/");
    const fn = (match[1] ?? "<anonymous>").replace(/^async /, "").replace(/^new /, "");
    frames.push(`${fn}@${file}`);
    if (frames.length >= limit) break;
  }
  return frames;
}

/** The group key of an error log (16 hex characters), or "" when the record is not an error. */
export function errorFingerprint(input: FingerprintInput): string {
  if (!ERROR_LEVELS.has(input.level)) return "";
  const type = errorTypeOf(input.message, input.errorType);
  const message =
    type !== "" && input.message.startsWith(`${type}:`)
      ? input.message.slice(type.length + 1)
      : input.message;
  const key = [type, normaliseErrorMessage(message), ...inAppFrames(input.payload)].join("\n");
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}
