// Authenticating ingest keys: SHA-256 of the presented key, then an in-memory cache in front
// of one metadata query. Revoking a key, or deleting its app or project, drops the cached
// entries at once in this process; other processes notice within CACHE_TTL_MS. Usage is
// recorded in memory and written at most once a minute per key, off the request path.
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { sha256Hex } from "../../lib/ids.js";
import type { ApiKeysRepo } from "../../stores/metadata/repos/api-keys.repo.js";
import type { KeyPrincipal } from "../ingest/index.js";
import { looksLikeKey } from "./key-format.js";

/** Bounds how long another instance may accept a key this one revoked. */
const CACHE_TTL_MS = 5_000;
const MAX_CACHE_ENTRIES = 10_000;
const USAGE_WRITE_INTERVAL_MS = 60_000;
const USAGE_FLUSH_EVERY_MS = 10_000;

interface CacheEntry {
  readonly principal: KeyPrincipal | null;
  readonly expiresAt: number;
}

export interface KeyAuthenticatorOptions {
  /** Called when writing usage fails; usage is best effort and never fails a request. */
  readonly onUsageError?: (error: unknown) => void;
}

export function createKeyAuthenticator(
  repo: ApiKeysRepo,
  clock: Clock,
  options: KeyAuthenticatorOptions = {},
) {
  const cache = new Map<string, CacheEntry>();
  const lastWritten = new Map<string, number>();
  const pendingUsage = new Set<string>();
  let flushing: Promise<void> = Promise.resolve();

  const timer = setInterval(() => void flushUsage(), USAGE_FLUSH_EVERY_MS);
  timer.unref();

  function recordUse(keyId: string, now: number): void {
    const last = lastWritten.get(keyId);
    if (last !== undefined && now - last < USAGE_WRITE_INTERVAL_MS) return;
    lastWritten.set(keyId, now);
    pendingUsage.add(keyId);
  }

  function flushUsage(): Promise<void> {
    flushing = flushing.then(async () => {
      if (pendingUsage.size === 0) return;
      const ids = [...pendingUsage];
      pendingUsage.clear();
      try {
        await repo.touch(ids, toIsoTimestamp(clock.now()));
      } catch (error) {
        options.onUsageError?.(error);
      }
    });
    return flushing;
  }

  function remember(hash: string, principal: KeyPrincipal | null, now: number): void {
    if (cache.size >= MAX_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(hash, { principal, expiresAt: now + CACHE_TTL_MS });
  }

  function forgetWhere(matches: (principal: KeyPrincipal) => boolean): void {
    for (const [hash, entry] of cache) {
      if (entry.principal !== null && matches(entry.principal)) cache.delete(hash);
    }
  }

  return {
    async authenticate(rawKey: string): Promise<KeyPrincipal | null> {
      if (!looksLikeKey(rawKey)) return null;
      const hash = sha256Hex(rawKey);
      const now = clock.now().getTime();
      const cached = cache.get(hash);
      let principal: KeyPrincipal | null;
      if (cached !== undefined && cached.expiresAt > now) {
        principal = cached.principal;
      } else {
        const row = await repo.lookupLive(hash);
        principal =
          row === undefined
            ? null
            : {
                keyId: row.key_id,
                project: {
                  id: row.project_id,
                  slug: row.project_slug,
                  retention: {
                    requests: row.requests_retention_days,
                    logs: row.logs_retention_days,
                    spans: row.spans_retention_days,
                    rollups: row.rollups_retention_days,
                  },
                },
                app:
                  row.app_id === null || row.app_slug === null
                    ? null
                    : { id: row.app_id, slug: row.app_slug },
              };
        remember(hash, principal, now);
      }
      if (principal !== null) recordUse(principal.keyId, now);
      return principal;
    },

    forgetKeys(hashes: readonly string[]): void {
      for (const hash of hashes) cache.delete(hash);
    },
    forgetProject(projectId: string): void {
      forgetWhere((principal) => principal.project.id === projectId);
    },
    forgetApp(appId: string): void {
      forgetWhere((principal) => principal.app?.id === appId);
    },

    /** Writes pending usage; called on shutdown. */
    async close(): Promise<void> {
      clearInterval(timer);
      await flushUsage();
    },
    flushUsage,
  };
}

export type KeyAuthenticator = ReturnType<typeof createKeyAuthenticator>;
