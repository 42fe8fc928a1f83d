// A background job run inside the server on one instance at a time: each tick the instance takes
// or renews its lease row and runs a pass only while holding it; a dead holder's lease runs out
// and another instance takes over at its next tick; a clean shutdown releases the lease at once.
import { hostname } from "node:os";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../clock.js";
import type { LeasesRepo } from "../stores/metadata/repos/leases.repo.js";
import { newId } from "./ids.js";

export interface LeasedLoop<T> {
  /** This instance's name in the lease row. */
  readonly instance: string;
  start(): void;
  /** One tick now: take or renew the lease and, when held, run a pass. Undefined when not held. */
  tick(): Promise<T | undefined>;
  close(): Promise<void>;
}

export function createLeasedLoop<T>(options: {
  leases: LeasesRepo;
  /** The lease row's name: one holder per name across the fleet. */
  lease: string;
  clock: Clock;
  logger: Logger;
  intervalMs: number;
  /** How long a taken lease lasts: longer than a tick, and than a pass may take. */
  leaseMs: number;
  /** Names the loop in its log lines (lease taken or lost, a failed tick). */
  label: string;
  /** Runs on every tick once the lease is settled, whether this instance holds it or not. */
  everyTick?: () => void;
  pass: (now: Date, instance: string) => Promise<T>;
}): LeasedLoop<T> {
  const { leases, lease, clock, logger, intervalMs, leaseMs } = options;
  const instance = `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  let holding = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<T | undefined> = Promise.resolve(undefined);

  async function tickOnce(): Promise<T | undefined> {
    const now = clock.now();
    const held = await leases.acquire(
      lease,
      instance,
      toIsoTimestamp(now),
      toIsoTimestamp(new Date(now.getTime() + leaseMs)),
    );
    if (held !== holding) {
      holding = held;
      logger.info({ instance }, `${options.label} lease ${held ? "acquired" : "lost"}`);
    }
    options.everyTick?.();
    if (!held) {
      logger.debug({ instance }, `${options.label} lease held by another instance`);
      return undefined;
    }
    return options.pass(now, instance);
  }

  // Ticks never overlap: a manual tick waits for the scheduled one and the other way round.
  function tick(): Promise<T | undefined> {
    current = current.catch(() => undefined).then(() => tickOnce());
    return current;
  }

  function schedule(): void {
    if (closed) return;
    timer = setTimeout(() => {
      tick()
        .catch((error: unknown) => logger.error({ err: error }, `${options.label} tick failed`))
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  }

  return {
    instance,
    start: schedule,
    tick,
    async close() {
      closed = true;
      clearTimeout(timer);
      await current.catch(() => undefined);
      if (holding) await leases.release(lease, instance).catch(() => undefined);
    },
  };
}
