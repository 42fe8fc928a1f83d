// Idempotency-Key for ingest: the first answer to a (project, route, key) is remembered for
// 24 hours in the metadata store and given again to retries, and the batch is stored once.
// A claim row is inserted before the rows are written (only one request can insert it) and
// marked done after; a claim left pending by a crashed process is resolved by looking for the
// batch's first row in the events store (batches are stored whole or not at all).
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { INGEST_LIMITS, type IngestRecordError } from "@sightline/contracts";
import type { Logger } from "pino";
import type { Clock } from "../../clock.js";
import { AppError } from "../../errors.js";
import type {
  IdempotencyRow,
  IdempotencyScope,
  IngestIdempotencyRepo,
} from "../../stores/metadata/repos/ingest-idempotency.repo.js";
import type { BatchProbe } from "./ingest.pipeline.js";

/** The answer a batch got, as remembered. */
export interface StoredAnswer {
  readonly status: 200 | 422;
  readonly accepted: number;
  readonly rejected: number;
  readonly errors: readonly IngestRecordError[];
  /** Unknown record fields the batch carried (absent when none). */
  readonly ignored_fields?: readonly string[];
  /** True when the batch had too many invalid records and was refused whole. */
  readonly refused_whole?: boolean;
}

/** One request's own attempt at a batch, prepared before the claim is taken. */
export interface PreparedAttempt {
  readonly answer: StoredAnswer;
  /** Null when the batch stores no row (all rejected): the answer is final at once. */
  readonly probe: BatchProbe | null;
  /** Stores the batch; a rejection means nothing of it was stored. */
  commit(): Promise<void>;
}

export interface IdempotencyOutcome {
  readonly answer: StoredAnswer;
  /** True when the answer is an earlier request's. */
  readonly replayed: boolean;
}

export interface IdempotencyGateOptions {
  readonly repo: IngestIdempotencyRepo;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Whether the batch whose first row is `probe` was stored (an events-store lookup). */
  readonly probeStored: (scope: IdempotencyScope, probe: BatchProbe) => Promise<boolean>;
  /**
   * True when no other live process can hold a claim (embedded chDB: one process per data
   * directory), so a claim from another instance is abandoned as soon as it is seen.
   */
  readonly exclusive: boolean;
  /** How long another instance's pending claim is presumed alive. */
  readonly leaseMs?: number;
  /** How long a request waits for a concurrent request with its key before giving up (409). */
  readonly waitMs?: number;
}

export interface IdempotencyGate {
  run(
    scope: IdempotencyScope,
    bodyHash: string,
    prepare: () => Promise<PreparedAttempt>,
  ): Promise<IdempotencyOutcome>;
}

const POLL_MS = 25;
const PURGE_EVERY_MS = 10 * 60_000;

export function createIdempotencyGate(options: IdempotencyGateOptions): IdempotencyGate {
  const { repo, clock, logger } = options;
  const leaseMs = options.leaseMs ?? 120_000;
  const waitMs = options.waitMs ?? 10_000;
  /** This instance's name on its claims. */
  const instance = randomUUID();
  /**
   * Requests of this instance that may hold a claim right now (counted from before the claim
   * is attempted until its batch is settled). A claim of ours that nobody here holds was
   * abandoned, e.g. when recording the final answer failed.
   */
  const holding = new Map<string, number>();
  let lastPurge = 0;

  const scopeKey = (scope: IdempotencyScope) => `${scope.projectId}\u0000${scope.kind}\u0000${scope.key}`;

  function isAbandoned(row: IdempotencyRow, scope: IdempotencyScope, nowMs: number): boolean {
    if (row.owner === instance) return (holding.get(scopeKey(scope)) ?? 0) === 0;
    return options.exclusive || nowMs - Date.parse(row.created_at) > leaseMs;
  }

  async function holdWhile<T>(scope: IdempotencyScope, work: () => Promise<T>): Promise<T> {
    const key = scopeKey(scope);
    holding.set(key, (holding.get(key) ?? 0) + 1);
    try {
      return await work();
    } finally {
      const left = (holding.get(key) ?? 1) - 1;
      if (left === 0) holding.delete(key);
      else holding.set(key, left);
    }
  }

  function purgeExpired(now: Date): void {
    if (now.getTime() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = now.getTime();
    repo.deleteExpired(now.toISOString()).catch((error: unknown) => {
      logger.warn({ err: error }, "could not purge expired idempotency keys");
    });
  }

  function claimFields(attempt: PreparedAttempt, now: Date) {
    return {
      owner: instance,
      answer: JSON.stringify(attempt.answer),
      probe:
        attempt.probe === null
          ? null
          : JSON.stringify({ id: attempt.probe.id, timestamp_ms: attempt.probe.timestampMs }),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + INGEST_LIMITS.idempotencyWindowMs).toISOString(),
    };
  }

  /** Stores the batch under a claim this instance holds, then records the answer as final. */
  async function commitClaimed(
    scope: IdempotencyScope,
    attempt: PreparedAttempt,
  ): Promise<IdempotencyOutcome> {
    if (attempt.probe !== null) {
      try {
        await attempt.commit();
      } catch (error) {
        // An insert sent over the network can fail after the server stored it (the answer was
        // lost): look before letting a retry store the batch again.
        const stored = await options.probeStored(scope, attempt.probe).catch(() => false);
        if (!stored) {
          await repo.release(scope, instance).catch((releaseError: unknown) => {
            logger.warn({ err: releaseError }, "could not release an idempotency claim");
          });
          throw error;
        }
      }
    }
    // If recording fails after the rows were stored, the claim stays pending and the probe
    // settles it on the next retry.
    await repo.complete(scope, instance).catch((error: unknown) => {
      logger.warn({ err: error }, "could not record an idempotent answer; a retry will recover it");
    });
    return { answer: attempt.answer, replayed: false };
  }

  return {
    async run(scope, bodyHash, prepare) {
      const started = Date.now();
      let attempt: PreparedAttempt | undefined;
      for (;;) {
        const now = clock.now();
        purgeExpired(now);
        const row = await repo.find(scope);
        if (row !== undefined && Date.parse(row.expires_at) <= now.getTime()) {
          await repo.deleteIfCreatedAt(scope, row.created_at);
          continue;
        }
        if (row === undefined) {
          const mine = (attempt ??= await prepare());
          const outcome = await holdWhile(scope, async () => {
            const claimed = await repo.insertIfAbsent({
              project_id: scope.projectId,
              kind: scope.kind,
              idempotency_key: scope.key,
              body_hash: bodyHash,
              state: "pending",
              ...claimFields(mine, now),
            });
            return claimed ? commitClaimed(scope, mine) : null;
          });
          if (outcome !== null) return outcome;
          continue;
        }
        if (row.body_hash !== bodyHash) {
          throw new AppError(
            "conflict",
            "This Idempotency-Key was already used with a different body within the last 24 hours.",
          );
        }
        if (row.state === "done") return { answer: parseAnswer(row.answer), replayed: true };
        if (!isAbandoned(row, scope, now.getTime())) {
          if (Date.now() - started >= waitMs) {
            throw new AppError(
              "conflict",
              "A request with this Idempotency-Key is still being processed; retry shortly.",
              { headers: { "retry-after": "1" } },
            );
          }
          await sleep(POLL_MS);
          continue;
        }
        // Abandoned by a process that stopped: its batch was stored whole or not at all.
        if (row.probe !== null && (await options.probeStored(scope, parseProbe(row.probe)))) {
          if (await repo.complete(scope, row.owner))
            return { answer: parseAnswer(row.answer), replayed: true };
          continue;
        }
        const mine = (attempt ??= await prepare());
        const outcome = await holdWhile(scope, async () =>
          (await repo.takeOver(scope, row.owner, claimFields(mine, now))) ? commitClaimed(scope, mine) : null,
        );
        if (outcome !== null) return outcome;
      }
    },
  };
}

function parseAnswer(text: string): StoredAnswer {
  return JSON.parse(text) as StoredAnswer;
}

function parseProbe(text: string): BatchProbe {
  const probe = JSON.parse(text) as { id: string; timestamp_ms: number };
  return { id: probe.id, timestampMs: probe.timestamp_ms };
}
