// Rate limiting as a domain service: "at most N hits per window for this bucket". Counters
// live in the metadata store so every instance enforces the same limit across restarts.
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import type { RateLimitsRepo } from "../../stores/metadata/repos/rate-limits.repo.js";

export interface RateLimitRule {
  /** Distinguishes limits in messages and buckets, e.g. `magic-link-email`. */
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

export interface RateLimitVerdict {
  readonly allowed: boolean;
  readonly hits: number;
  /** Whole seconds until the current window ends (at least 1). */
  readonly retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one hit and tells whether it is within the rule. */
  hit(rule: RateLimitRule, subject: string): Promise<RateLimitVerdict>;
  /** Counts one hit and throws `rate_limited` (with Retry-After) when over the rule. */
  consume(rule: RateLimitRule, subject: string, detail: string): Promise<void>;
  /**
   * Counts an attempt before it is evaluated and throws `rate_limited` when it is beyond the rule:
   * for limits on failures (login lockout). Counting first, in the same atomic upsert as the
   * check, is what holds the limit against parallel attempts: a count read before evaluating and
   * written after let 24 concurrent guesses all through a limit of 10. An attempt that turns out
   * not to be a failure is taken back with `refund()` (or the subject `reset`).
   */
  attempt(rule: RateLimitRule, subject: string, detail: string): Promise<CountedAttempt>;
  /** Forgets the subject's hits (e.g. failed logins after a successful one). */
  reset(rule: RateLimitRule, subject: string): Promise<void>;
}

/** An attempt counted by `attempt()`. */
export interface CountedAttempt {
  /** Takes the attempt back (it succeeded): removes its hit from the window it was counted in. */
  refund(): Promise<void>;
}

const SWEEP_EVERY_MS = 60_000;

export function createRateLimiter(repo: RateLimitsRepo, clock: Clock): RateLimiter {
  let lastSweep = 0;

  function windowOf(rule: RateLimitRule) {
    const nowMs = clock.now().getTime();
    const windowMs = rule.windowSeconds * 1000;
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    const windowEnd = windowStart + windowMs;
    return {
      nowMs,
      start: toIsoTimestamp(new Date(windowStart)),
      end: toIsoTimestamp(new Date(windowEnd)),
      retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - nowMs) / 1000)),
    };
  }

  const limited = (detail: string, retryAfterSeconds: number) =>
    new AppError("rate_limited", detail, { headers: { "retry-after": String(retryAfterSeconds) } });

  async function count(rule: RateLimitRule, subject: string) {
    const { nowMs, start, end, retryAfterSeconds } = windowOf(rule);
    const bucket = `${rule.name}:${subject}`;
    const hits = await repo.increment(bucket, start, end);
    if (nowMs - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = nowMs;
      await repo.deleteExpired(toIsoTimestamp(new Date(nowMs)));
    }
    return { bucket, start, verdict: { allowed: hits <= rule.limit, hits, retryAfterSeconds } };
  }

  async function hit(rule: RateLimitRule, subject: string): Promise<RateLimitVerdict> {
    return (await count(rule, subject)).verdict;
  }

  return {
    hit,
    async consume(rule, subject, detail) {
      const verdict = await hit(rule, subject);
      if (!verdict.allowed) throw limited(detail, verdict.retryAfterSeconds);
    },
    async attempt(rule, subject, detail) {
      const { bucket, start, verdict } = await count(rule, subject);
      if (!verdict.allowed) throw limited(detail, verdict.retryAfterSeconds);
      return { refund: () => repo.decrement(bucket, start) };
    },
    async reset(rule, subject) {
      await repo.clear(`${rule.name}:${subject}`);
    },
  };
}
