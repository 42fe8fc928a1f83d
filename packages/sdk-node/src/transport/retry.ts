// When to try a failed batch again: exponential backoff with full jitter, never sooner than
// the server's Retry-After. Which answers are worth retrying at all.

/** Statuses that say "later", not "never": rate limited, overloaded, or a proxy in between. */
const RETRYABLE = new Set([408, 429, 502, 503, 504]);

export function isRetryable(status: number): boolean {
  return RETRYABLE.has(status);
}

/** Milliseconds to wait before attempt `attempt + 1` (attempt counts from 0). */
export function backoffDelay(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  // Half fixed, half random ("equal jitter"): instances that failed together retry apart.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A Retry-After value (delta-seconds or an HTTP date) in milliseconds from `nowMs`. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
