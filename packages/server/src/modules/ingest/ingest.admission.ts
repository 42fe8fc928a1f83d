// Per-project and per-key admission of ingest: token buckets in records per second, kept in this
// process (each instance enforces its own share; see the README). Owns only the buckets; the
// writers' per-project share of pending rows is the second line (stores/events/writer.ts).
import { setTimeout as sleep } from "node:timers/promises";
import type { Clock } from "../../clock.js";
import { AppError } from "../../errors.js";
import type { KeyPrincipal } from "./directory.js";

export interface AdmissionLimits {
  /** Records per second a project may send, on average (INGEST_PROJECT_RATE). */
  readonly projectRate: number;
  /** Records a project may send at once beyond the rate (INGEST_PROJECT_BURST). */
  readonly projectBurst: number;
  /** The same per API key (INGEST_KEY_RATE, INGEST_KEY_BURST). */
  readonly keyRate: number;
  readonly keyBurst: number;
}

export interface IngestAdmission {
  /**
   * Before the body is read: rejects with `rate_limited` (429 + Retry-After) when the project's or
   * the key's bucket is in debt, so a flood that is refused costs no decoding or parsing. The
   * refusal is answered after REFUSAL_HOLD_MS, so a client that ignores Retry-After cannot turn
   * cheap refusals into a flood of their own. A request let through reserves the size of the
   * key's previous batch, so requests arriving together cannot all pass on the same records.
   */
  screen(principal: KeyPrincipal): Promise<void>;
  /** Charges `records` to both buckets (in place of the request's reservation), or throws
   *  `rate_limited` when either is in debt. */
  admit(principal: KeyPrincipal, records: number): void;
}

interface Bucket {
  /** Records that may still be sent; negative while in debt. */
  tokens: number;
  /** Clock time of the last refill, ms. */
  at: number;
}

/** What admission remembers of a key beyond its bucket. */
interface KeyState {
  /** Records of its last admitted batch: what the next request is expected to carry. */
  lastBatch: number;
  /** Reservations of screened requests not yet admitted, oldest first. A request that fails
   *  before admission (a bad body) leaves its reservation charged: its cost. */
  reserved: number[];
}

/** How long a refusal before the body waits to be answered. Measured (bench:ingest, noisy
 *  neighbour): 32 clients answered at once sent 3,500 refused batches a second, and the victim's
 *  p50 tripled from reading and discarding their bodies. Retry-After is at least this anyway. */
const REFUSAL_HOLD_MS = 1000;

/** Reservations remembered per key; older ones stay charged and are forgotten. */
const MAX_RESERVATIONS = 256;

/** Idle buckets are forgotten (a full bucket is the same as a new one) at most this often. */
const SWEEP_EVERY_MS = 60_000;

/**
 * A bucket admits a batch whenever it is not in debt and then takes the batch's whole size, so it
 * may go below zero: a batch larger than the burst is never locked out, the average rate still
 * holds (the overshoot is at most one batch), and whether a caller is refused is known before
 * its body is read. Without the reservations, requests arriving together on a bucket just out
 * of debt all passed the screen and were read and parsed only to be refused; in the noisy-
 * neighbour bench 32 flooding clients held to 2,000 records/s still put the victim's p99 at 4x
 * alone, against 1x with 4 clients at the same rate (one run each, loaded machine).
 */
export function createIngestAdmission(limits: AdmissionLimits, clock: Clock): IngestAdmission {
  const projects = new Map<string, Bucket>();
  const keys = new Map<string, Bucket>();
  const keyStates = new Map<string, KeyState>();
  let lastSweep = clock.now().getTime();

  function refilled(buckets: Map<string, Bucket>, id: string, rate: number, burst: number, now: number) {
    let bucket = buckets.get(id);
    if (bucket === undefined) {
      bucket = { tokens: burst, at: now };
      buckets.set(id, bucket);
      return bucket;
    }
    // A clock set back refills nothing rather than draining.
    const elapsed = Math.max(0, now - bucket.at);
    bucket.tokens = Math.min(burst, bucket.tokens + (elapsed * rate) / 1000);
    bucket.at = now;
    return bucket;
  }

  function sweep(now: number): void {
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    for (const [buckets, rate, burst] of [
      [projects, limits.projectRate, limits.projectBurst],
      [keys, limits.keyRate, limits.keyBurst],
    ] as const) {
      for (const [id, bucket] of buckets) {
        if (bucket.tokens + ((now - bucket.at) * rate) / 1000 >= burst) {
          buckets.delete(id);
          if (buckets === keys) keyStates.delete(id);
        }
      }
    }
  }

  /** Both buckets of the principal, refilled to now. */
  function bucketsOf(principal: KeyPrincipal): [Bucket, Bucket] {
    const now = clock.now().getTime();
    sweep(now);
    return [
      refilled(projects, principal.project.id, limits.projectRate, limits.projectBurst, now),
      refilled(keys, principal.keyId, limits.keyRate, limits.keyBurst, now),
    ];
  }

  /** Throws `rate_limited` when either bucket is in debt. */
  function assertNotInDebt(project: Bucket, key: Bucket): void {
    if (project.tokens < 0) throw limited("project", project.tokens, limits.projectRate);
    if (key.tokens < 0) throw limited("API key", key.tokens, limits.keyRate);
  }

  function charge(project: Bucket, key: Bucket, records: number): void {
    project.tokens -= records;
    key.tokens -= records;
  }

  function stateOf(keyId: string): KeyState {
    let state = keyStates.get(keyId);
    if (state === undefined) {
      state = { lastBatch: 0, reserved: [] };
      keyStates.set(keyId, state);
    }
    return state;
  }

  return {
    async screen(principal) {
      const [project, key] = bucketsOf(principal);
      try {
        assertNotInDebt(project, key);
      } catch (error) {
        await sleep(REFUSAL_HOLD_MS);
        throw error;
      }
      const state = stateOf(principal.keyId);
      charge(project, key, state.lastBatch);
      state.reserved.push(state.lastBatch);
      if (state.reserved.length > MAX_RESERVATIONS) state.reserved.shift();
    },
    admit(principal, records) {
      const [project, key] = bucketsOf(principal);
      const state = keyStates.get(principal.keyId);
      // This request's own reservation is given back first: it must not refuse its own batch.
      const reserved = state?.reserved.shift() ?? 0;
      charge(project, key, -reserved);
      try {
        assertNotInDebt(project, key);
      } catch (error) {
        charge(project, key, reserved);
        throw error;
      }
      charge(project, key, records);
      stateOf(principal.keyId).lastBatch = records;
    },
  };
}

function limited(subject: "project" | "API key", tokens: number, rate: number): AppError {
  // Whole seconds until the bucket is out of debt; at least one.
  const seconds = Math.max(1, Math.ceil(-tokens / rate));
  return new AppError(
    "rate_limited",
    `This ${subject} is over its ingest rate (${rate} records per second on this server); nothing from ` +
      "this batch was stored. Retry after the Retry-After delay.",
    { headers: { "retry-after": String(seconds) } },
  );
}
