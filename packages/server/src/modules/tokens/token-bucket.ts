// In-process token buckets, one per key: `perMinute` requests a minute on average, bursts up to
// the same number. Per instance by design: a shared counter would cost a store write per request.
import type { Clock } from "../../clock.js";

export interface TokenBuckets {
  /** Takes one request from the key's bucket: 0 when allowed, else the seconds until one frees. */
  take(key: string): number;
}

/** Past this many keys, full (idle) buckets are dropped: they are the same as absent ones. */
const PRUNE_ABOVE = 10_000;

export function createTokenBuckets(perMinute: number, clock: Clock): TokenBuckets {
  const refillPerMs = perMinute / 60_000;
  const buckets = new Map<string, { level: number; at: number }>();

  function prune(now: number): void {
    for (const [key, bucket] of buckets)
      if (bucket.level + (now - bucket.at) * refillPerMs >= perMinute) buckets.delete(key);
  }

  return {
    take(key) {
      const now = clock.now().getTime();
      const found = buckets.get(key);
      const level =
        found === undefined ? perMinute : Math.min(perMinute, found.level + (now - found.at) * refillPerMs);
      if (level < 1) {
        buckets.set(key, { level, at: now });
        return Math.max(1, Math.ceil((1 - level) / refillPerMs / 1000));
      }
      if (found === undefined && buckets.size >= PRUNE_ABOVE) prune(now);
      buckets.set(key, { level: level - 1, at: now });
      return 0;
    },
  };
}
