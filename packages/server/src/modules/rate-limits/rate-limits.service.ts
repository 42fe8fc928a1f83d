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
   * Throws `rate_limited` when the current window already holds `limit` hits, without counting
   * one: for limits on failures (login lockout), which count only when an attempt fails.
   */
  assertBelow(rule: RateLimitRule, subject: string, detail: string): Promise<void>;
  /** Forgets the subject's hits (e.g. failed logins after a successful one). */
  reset(rule: RateLimitRule, subject: string): Promise<void>;
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

  async function hit(rule: RateLimitRule, subject: string): Promise<RateLimitVerdict> {
    const { nowMs, start, end, retryAfterSeconds } = windowOf(rule);
    const hits = await repo.increment(`${rule.name}:${subject}`, start, end);
    if (nowMs - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = nowMs;
      await repo.deleteExpired(toIsoTimestamp(new Date(nowMs)));
    }
    return { allowed: hits <= rule.limit, hits, retryAfterSeconds };
  }

  return {
    hit,
    async consume(rule, subject, detail) {
      const verdict = await hit(rule, subject);
      if (!verdict.allowed) throw limited(detail, verdict.retryAfterSeconds);
    },
    async assertBelow(rule, subject, detail) {
      const { start, retryAfterSeconds } = windowOf(rule);
      const hits = await repo.count(`${rule.name}:${subject}`, start);
      if (hits >= rule.limit) throw limited(detail, retryAfterSeconds);
    },
    async reset(rule, subject) {
      await repo.clear(`${rule.name}:${subject}`);
    },
  };
}
