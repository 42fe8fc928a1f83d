// The migrator's lock: a lease in the metadata store held by one schema-changing job at a time,
// so concurrent `sightline migrate` runs change the events schema one after another.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { type Clock, toIsoTimestamp } from "../clock.js";
import type { LeasesRepo } from "./metadata/repos/leases.repo.js";

export const EVENTS_MIGRATION_LEASE = "events-migrator";

export interface MigrationLockOptions {
  readonly leases: LeasesRepo;
  readonly clock: Clock;
  /** How long the lease lasts unrenewed: the longest a crashed holder keeps others waiting. */
  readonly leaseMs?: number;
  /** Pause between attempts while another job holds the lease. */
  readonly pollMs?: number;
  /** Called once when the lease is taken by someone else and this job starts waiting. */
  readonly onWait?: () => void;
}

/** Runs `work` while holding the migrator lease, waiting for it first if another job holds it;
 *  the lease is renewed while `work` runs and released after it. */
export async function withMigrationLock<T>(
  options: MigrationLockOptions,
  work: () => Promise<T>,
): Promise<T> {
  const { leases, clock } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 500;
  const holder = `${hostname()}-${process.pid}-${randomUUID()}`;
  const take = () => {
    const now = clock.now();
    return leases.acquire(
      EVENTS_MIGRATION_LEASE,
      holder,
      toIsoTimestamp(now),
      toIsoTimestamp(new Date(now.getTime() + leaseMs)),
    );
  };
  let waiting = false;
  while (!(await take())) {
    if (!waiting) options.onWait?.();
    waiting = true;
    await sleep(pollMs);
  }
  // A renewal that fails is retried at the next tick; the lease outlives two missed ones.
  let renewal: Promise<unknown> = Promise.resolve();
  const timer = setInterval(
    () => {
      renewal = take().catch(() => false);
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await renewal;
    await leases.release(EVENTS_MIGRATION_LEASE, holder).catch(() => undefined);
  }
}
