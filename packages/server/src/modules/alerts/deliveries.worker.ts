// Sends what the outbox holds, off the request path and the evaluator's pass: every instance
// looks for due rows at each evaluator tick, after a pass that queued some, and when the next
// retry falls due. Several rows are sent at once, within bounds overall, per project and per
// channel, and picked round-robin across projects (the project with the fewest sends under way
// first), so one project's slow receivers or endless backlog cannot hold another's notification.
// Each row is claimed with a conditional update (so one instance sends it) just before its send,
// for longer than the send's deadline; the outcome is recorded on the row. A failed attempt is
// retried after a growing pause; after the last one the row is `failed`, with its error visible
// on the alert event.
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { createNotificationChannelsRepo } from "../../stores/metadata/repos/notification-channels.repo.js";
import {
  createNotificationDeliveriesRepo,
  type DueDelivery,
  type NotificationDeliveryRow,
} from "../../stores/metadata/repos/notification-deliveries.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { MailTransport } from "../auth/index.js";
import { type AlertsObserver, unobserved } from "./alerts.observer.js";
import { channelTargetOf } from "./channels.service.js";
import { DeliveryError } from "./http-post.js";
import { type OutboxNotification, sendNotification } from "./senders.js";

/** Pauses after failed attempts 1, 2, …; one more attempt than entries (6 in all, over ~2.7 h). */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 7_200_000] as const;

/** Rows read ahead per project and channel, in multiples of their bounds. */
const READ_AHEAD = 8;
/** Longest a run goes without looking at the outbox again (retries falling due meanwhile). */
const REFRESH_MS = 5_000;

/** How long a claim outlives the deadline of the send it covers (store round trips, clock skew). */
export const CLAIM_MARGIN_MS = 60_000;

/** Sends under way at once on one instance. */
export interface DeliveryBounds {
  readonly overall: number;
  readonly perProject: number;
  readonly perChannel: number;
}

export const DEFAULT_DELIVERY_BOUNDS: DeliveryBounds = { overall: 16, perProject: 4, perChannel: 2 };

export interface DeliveryWorkerOptions {
  readonly allowPrivateTargets: boolean;
  /** Deadline of one webhook or Slack send, answer included. */
  readonly timeoutMs?: number;
  readonly retryDelaysMs?: readonly number[];
  readonly bounds?: DeliveryBounds;
  readonly observer?: AlertsObserver;
}

export interface DeliveryWorker {
  /** Sends due rows soon in the background; then wakes again when the next retry is due. */
  kick(): void;
  /** Sends every row due now; resolves when they and the sends under way are done. */
  runDue(): Promise<number>;
  /** Stops starting sends and waits for those under way. */
  close(): Promise<void>;
}

/** A reason fit for the API and the log: never the URL's path, a secret, or a stack. */
export function describeFailure(error: unknown): string {
  if (error instanceof DeliveryError) return error.message;
  const fields = error as { responseCode?: unknown; code?: unknown; response?: unknown };
  if (typeof fields.responseCode === "number") {
    const text = typeof fields.response === "string" ? fields.response.slice(0, 200) : "";
    return `mail server answered ${fields.responseCode}${text === "" ? "" : `: ${text}`}`;
  }
  if (typeof fields.code === "string") return `delivery failed (${fields.code})`;
  return "delivery failed";
}

/**
 * Due rows read ahead, several sends' worth per project and channel: a send that ends starts
 * the next from here, so the store is asked again only when the buffer runs dry (a project
 * used up all it had here), when rows are announced, or every REFRESH_MS. Asking at every send
 * cost a sort of the whole backlog each time (tens of ms at 20k due rows on SQLite).
 */
interface ReadAhead {
  rows: DueDelivery[];
  readAt: number;
  /** A project used up its rows here: the store may hold more of them. */
  exhausted: boolean;
}

/** Counts of sends under way by key (a project, a channel). */
class Load {
  private readonly counts = new Map<string, number>();
  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  add(key: string, delta: number): void {
    const next = this.of(key) + delta;
    if (next === 0) this.counts.delete(key);
    else this.counts.set(key, next);
  }
}

export function createDeliveryWorker(
  deps: { db: Kysely<MetadataTables>; clock: Clock; logger: Logger; mail: MailTransport },
  options: DeliveryWorkerOptions,
): DeliveryWorker {
  const { db, clock, logger, mail } = deps;
  const outbox = createNotificationDeliveriesRepo(db);
  const channels = createNotificationChannelsRepo(db);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const bounds = options.bounds ?? DEFAULT_DELIVERY_BOUNDS;
  const observer = options.observer ?? unobserved;
  // A claim outlives the send's deadline, so no other instance re-sends a row still in flight.
  const claimMs = timeoutMs + CLAIM_MARGIN_MS;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let active: Promise<number> | undefined;
  // Set by runDue/kick while a run is under way: look at the outbox again before finishing.
  let stale = false;
  let wake: () => void = () => undefined;

  const byProject = new Load();
  const byChannel = new Load();
  let underWay = 0;
  const channelKey = (row: { id: string; channel_id: string | null }) => row.channel_id ?? row.id;

  async function deliver(row: NotificationDeliveryRow): Promise<void> {
    const channelRow = row.channel_id === null ? undefined : await channels.findById(row.channel_id);
    if (channelRow === undefined) {
      await outbox.markCancelled(row.id, "the channel was deleted");
      return;
    }
    try {
      const target = await channelTargetOf(channelRow, (projectId) => channels.memberEmails(projectId));
      await sendNotification(target, JSON.parse(row.payload) as OutboxNotification, row.id, {
        mail,
        allowPrivateTargets: options.allowPrivateTargets,
        timeoutMs,
        nowSeconds: () => Math.floor(clock.now().getTime() / 1000),
      });
      await outbox.markDelivered(row.id, toIsoTimestamp(clock.now()));
      observer.deliveryAttempted(row.channel_type, "delivered");
    } catch (error) {
      const reason = describeFailure(error);
      const delay = retryDelaysMs[row.attempts - 1];
      const next = delay === undefined ? null : toIsoTimestamp(new Date(clock.now().getTime() + delay));
      await outbox.markAttemptFailed(row.id, reason, next);
      observer.deliveryAttempted(row.channel_type, next === null ? "failed" : "retrying");
      logger.warn(
        { delivery: row.id, channel: row.channel_id, type: row.channel_type, attempt: row.attempts, reason },
        next === null ? "alert notification failed; giving up" : "alert notification failed; will retry",
      );
    }
  }

  /** Claims `candidate` and starts its send; false when another sender got it first. */
  async function start(candidate: DueDelivery, inFlight: Set<Promise<void>>): Promise<boolean> {
    const project = candidate.project_id;
    const channel = channelKey(candidate);
    // Counted before the claim's round trip, so sends finishing meanwhile see the right load.
    underWay += 1;
    byProject.add(project, 1);
    byChannel.add(channel, 1);
    const settle = () => {
      underWay -= 1;
      byProject.add(project, -1);
      byChannel.add(channel, -1);
    };
    const now = clock.now();
    const claimed = await outbox
      .claim(candidate.id, toIsoTimestamp(now), toIsoTimestamp(new Date(now.getTime() + claimMs)))
      .catch((error: unknown) => {
        settle();
        throw error;
      });
    if (claimed === undefined) {
      settle();
      return false;
    }
    const send: Promise<void> = deliver(claimed)
      .catch((error: unknown) =>
        // The row keeps its claim until it expires, then is tried again.
        logger.error({ err: error, delivery: claimed.id }, "alert notification could not be recorded"),
      )
      .finally(() => {
        settle();
        inFlight.delete(send);
      });
    inFlight.add(send);
    return true;
  }

  /**
   * The buffered row to start next, if any fits. Round-robin: the project with the fewest sends
   * under way first, then the row's place in its project's line (then the store's order).
   */
  function nextStartable(buffer: ReadAhead): number {
    let best = -1;
    let bestLoad = Number.POSITIVE_INFINITY;
    let bestRank = Number.POSITIVE_INFINITY;
    buffer.rows.forEach((row, index) => {
      const load = byProject.of(row.project_id);
      if (load >= bounds.perProject || byChannel.of(channelKey(row)) >= bounds.perChannel) return;
      if (load < bestLoad || (load === bestLoad && row.project_rank < bestRank)) {
        best = index;
        bestLoad = load;
        bestRank = row.project_rank;
      }
    });
    return best;
  }

  async function startFromBuffer(buffer: ReadAhead, inFlight: Set<Promise<void>>): Promise<number> {
    let started = 0;
    while (!closed && underWay < bounds.overall) {
      const index = nextStartable(buffer);
      if (index < 0) break;
      const [row] = buffer.rows.splice(index, 1) as [DueDelivery];
      if (!buffer.rows.some((other) => other.project_id === row.project_id)) buffer.exhausted = true;
      if (await start(row, inFlight)) started += 1;
    }
    return started;
  }

  /** Reads the buffer again from the outbox. */
  async function refill(buffer: ReadAhead): Promise<void> {
    if (stale) await outbox.cancelForDeletedProjects();
    stale = false;
    buffer.rows = await outbox.listDueFair(toIsoTimestamp(clock.now()), {
      perChannel: bounds.perChannel * READ_AHEAD,
      perProject: bounds.perProject * READ_AHEAD,
      limit: Math.max(128, bounds.overall * READ_AHEAD),
    });
    buffer.readAt = performance.now();
    buffer.exhausted = false;
  }

  /** Starts as many due rows as the bounds leave room for, fairest first. */
  async function fill(buffer: ReadAhead, inFlight: Set<Promise<void>>): Promise<number> {
    const room = () => !closed && underWay < bounds.overall;
    if (!room()) return 0;
    // Rows were announced (they may be another project's), or it is time to look again: read
    // before a free slot goes to what the buffer holds.
    if (stale || performance.now() - buffer.readAt > REFRESH_MS) await refill(buffer);
    let started = await startFromBuffer(buffer, inFlight);
    if (room() && buffer.exhausted) {
      await refill(buffer);
      started += await startFromBuffer(buffer, inFlight);
    }
    return started;
  }

  /** Fills free slots whenever a send ends or more rows are announced; done when all is quiet. */
  async function run(): Promise<number> {
    const inFlight = new Set<Promise<void>>();
    const buffer: ReadAhead = { rows: [], readAt: Number.NEGATIVE_INFINITY, exhausted: false };
    let sent = 0;
    for (;;) {
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
      });
      if (!closed) sent += await fill(buffer, inFlight);
      if (inFlight.size === 0) {
        if (stale && !closed) continue;
        return sent;
      }
      await Promise.race([...inFlight, woken]);
    }
  }

  function runDue(): Promise<number> {
    stale = true;
    wake();
    active ??= run().finally(() => {
      active = undefined;
    });
    return active;
  }

  /** Runs now, then again when the earliest retry falls due (rows of any instance). */
  function schedule(delayMs: number): void {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      runDue()
        .then(() => outbox.nextDueAt())
        .then((next) => {
          if (next !== undefined) schedule(Math.max(1_000, Date.parse(next) - clock.now().getTime()));
        })
        .catch((error: unknown) => logger.error({ err: error }, "alert notification run failed"));
    }, delayMs);
    timer.unref();
  }

  return {
    kick: () => schedule(0),
    runDue,
    async close() {
      closed = true;
      clearTimeout(timer);
      wake();
      await active?.catch(() => 0);
    },
  };
}
