// Sends what the outbox holds, off the request path and the evaluator's pass: every instance
// looks for due rows at each evaluator tick, after a pass that queued some, and when the next
// retry falls due; it claims each with a conditional update (so one instance sends it), sends it
// and records the outcome on the row. A failed attempt is retried after a growing pause; after
// the last one the row is `failed`, with its error visible on the alert event.
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { createNotificationChannelsRepo } from "../../stores/metadata/repos/notification-channels.repo.js";
import {
  createNotificationDeliveriesRepo,
  type NotificationDeliveryRow,
} from "../../stores/metadata/repos/notification-deliveries.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { MailTransport } from "../auth/index.js";
import { channelTargetOf } from "./channels.service.js";
import { DeliveryError } from "./http-post.js";
import type { Notification } from "./notification.js";
import { sendNotification } from "./senders.js";

/** Pauses after failed attempts 1, 2, …; one more attempt than entries (6 in all, over ~2.7 h). */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 7_200_000] as const;

export interface DeliveryWorkerOptions {
  readonly allowPrivateTargets: boolean;
  /** Longest wait for one webhook or Slack answer. */
  readonly timeoutMs?: number;
  readonly retryDelaysMs?: readonly number[];
}

export interface DeliveryWorker {
  /** Sends due rows soon in the background; then wakes again when the next retry is due. */
  kick(): void;
  /** Sends every row due now; resolves when done (after any run already under way). */
  runDue(): Promise<number>;
  /** Stops polling and waits for the run under way. */
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

export function createDeliveryWorker(
  deps: { db: Kysely<MetadataTables>; clock: Clock; logger: Logger; mail: MailTransport },
  options: DeliveryWorkerOptions,
): DeliveryWorker {
  const { db, clock, logger, mail } = deps;
  const outbox = createNotificationDeliveriesRepo(db);
  const channels = createNotificationChannelsRepo(db);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  // A claim outlives the longest send, so a live sender never loses its row to another.
  const claimMs = timeoutMs + 60_000;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let running: Promise<number> = Promise.resolve(0);

  async function deliver(row: NotificationDeliveryRow): Promise<void> {
    const channelRow = row.channel_id === null ? undefined : await channels.findById(row.channel_id);
    if (channelRow === undefined) {
      await outbox.markCancelled(row.id, "the channel was deleted");
      return;
    }
    try {
      const target = await channelTargetOf(channelRow, (projectId) => channels.memberEmails(projectId));
      await sendNotification(target, JSON.parse(row.payload) as Notification, row.id, {
        mail,
        allowPrivateTargets: options.allowPrivateTargets,
        timeoutMs,
        nowSeconds: () => Math.floor(clock.now().getTime() / 1000),
      });
      await outbox.markDelivered(row.id, toIsoTimestamp(clock.now()));
    } catch (error) {
      const reason = describeFailure(error);
      const delay = retryDelaysMs[row.attempts - 1];
      const next = delay === undefined ? null : toIsoTimestamp(new Date(clock.now().getTime() + delay));
      await outbox.markAttemptFailed(row.id, reason, next);
      logger.warn(
        { delivery: row.id, channel: row.channel_id, type: row.channel_type, attempt: row.attempts, reason },
        next === null ? "alert notification failed; giving up" : "alert notification failed; will retry",
      );
    }
  }

  async function runOnce(): Promise<number> {
    await outbox.cancelForDeletedProjects();
    let sent = 0;
    for (;;) {
      const now = clock.now();
      const due = await outbox.listDue(toIsoTimestamp(now), 20);
      if (due.length === 0) return sent;
      for (const id of due) {
        if (closed) return sent;
        const claimed = await outbox.claim(
          id,
          toIsoTimestamp(now),
          toIsoTimestamp(new Date(now.getTime() + claimMs)),
        );
        if (claimed === undefined) continue;
        await deliver(claimed);
        sent += 1;
      }
    }
  }

  function runDue(): Promise<number> {
    running = running.catch(() => 0).then(() => runOnce());
    return running;
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
      await running.catch(() => 0);
    },
  };
}
