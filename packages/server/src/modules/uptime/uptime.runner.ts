// One pass of the uptime runner (under its lease): the checks due now are run, a few at a time;
// their results are written to the events store first, then each check's state is recorded with
// the notifications of its change queued in the shared outbox — one metadata transaction per
// check — for the alert delivery worker to send. A check goes down after `failure_threshold`
// consecutive failures (firing) and comes back up with its next good run (resolved).
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { toIsoTimestamp } from "../../clock.js";
import { newOrderedId } from "../../lib/ids.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { createNotificationChannelsRepo } from "../../stores/metadata/repos/notification-channels.repo.js";
import { createNotificationDeliveriesRepo } from "../../stores/metadata/repos/notification-deliveries.repo.js";
import {
  createUptimeChecksRepo,
  type DueUptimeCheckRow,
  type UptimeRunUpdate,
} from "../../stores/metadata/repos/uptime-checks.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { UptimeNotification } from "../alerts/index.js";
import { type ProbeResult, probe } from "./uptime-probe.js";
import { insertResults } from "./uptime.results.js";
import { checkPagePath } from "./uptime.service.js";

/** Checks taken per pass; the rest wait for the next tick. */
const CHECKS_PER_PASS = 200;
/** Checks running at once. */
const CONCURRENCY = 8;

export interface UptimePassSummary {
  readonly checks: number;
  readonly notifications: number;
}

export interface UptimeRunner {
  run(now: Date): Promise<UptimePassSummary>;
}

/** The state after a run, and whether it notifies. */
export function nextState(
  state: string,
  consecutiveFailures: number,
  threshold: number,
  ok: boolean,
): { state: "unknown" | "up" | "down"; failures: number; notify: "firing" | "resolved" | null } {
  if (ok) return { state: "up", failures: 0, notify: state === "down" ? "resolved" : null };
  const failures = consecutiveFailures + 1;
  if (failures >= threshold) return { state: "down", failures, notify: state === "down" ? null : "firing" };
  return { state: state === "down" ? "down" : state === "up" ? "up" : "unknown", failures, notify: null };
}

async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function createUptimeRunner(deps: {
  db: Kysely<MetadataTables>;
  events: EventsExecutor;
  logger: Logger;
  publicUrl: string;
  allowPrivateTargets: boolean;
}): UptimeRunner {
  const { db, events, logger } = deps;
  const checks = createUptimeChecksRepo(db);

  async function record(check: DueUptimeCheckRow, result: ProbeResult, now: Date): Promise<number> {
    const at = toIsoTimestamp(now);
    const next = nextState(check.state, check.consecutive_failures, check.failure_threshold, result.ok);
    const run: UptimeRunUpdate = {
      state: next.state,
      state_since: next.state === check.state ? check.state_since : at,
      consecutive_failures: next.failures,
      last_checked_at: at,
      last_error: result.error,
      next_check_at: toIsoTimestamp(new Date(now.getTime() + check.interval_seconds * 1000)),
    };
    let queued = 0;
    await db.transaction().execute(async (trx) => {
      // Changed or deleted while it ran: the change wins, the check runs again as changed.
      if (!(await createUptimeChecksRepo(trx).saveRun(check.id, check.updated_at, run))) return;
      if (next.notify === null) return;
      const notification: UptimeNotification = {
        subject: "uptime",
        kind: next.notify,
        occurred_at: at,
        project: { id: check.project_id, slug: check.project_slug, name: check.project_name },
        check: {
          id: check.id,
          name: check.name,
          url: check.url,
          method: check.method,
          failure_threshold: check.failure_threshold,
        },
        consecutive_failures: next.failures,
        result: { status_code: result.statusCode, latency_ms: result.latencyMs, error: result.error },
        links: { check: `${deps.publicUrl}${checkPagePath(check.project_slug, check.id)}` },
      };
      const payload = JSON.stringify(notification);
      const channels = await createNotificationChannelsRepo(trx).findMany(
        check.project_id,
        JSON.parse(check.channel_ids) as string[],
      );
      await createNotificationDeliveriesRepo(trx).insertMany(
        channels.map((channel) => ({
          id: newOrderedId(now.getTime()),
          project_id: check.project_id,
          event_id: null,
          slo_event_id: null,
          channel_id: channel.id,
          channel_name: channel.name,
          channel_type: channel.type,
          payload,
          status: "pending",
          attempts: 0,
          next_attempt_at: at,
          claimed_until: null,
          last_error: null,
          delivered_at: null,
          created_at: at,
        })),
      );
      queued = channels.length;
    });
    if (next.notify !== null) {
      logger.info(
        { check: check.id, project: check.project_slug, state: next.state },
        "uptime check changed state",
      );
    }
    return queued;
  }

  return {
    async run(now) {
      const due = await checks.listDue(toIsoTimestamp(now), CHECKS_PER_PASS);
      if (due.length === 0) return { checks: 0, notifications: 0 };
      const results = await mapBounded(due, CONCURRENCY, (check) =>
        probe(
          {
            url: check.url,
            method: check.method,
            headers: JSON.parse(check.headers) as Record<string, string>,
            timeoutMs: check.timeout_ms,
            expectedStatus: check.expected_status,
            bodyContains: check.body_contains,
          },
          deps.allowPrivateTargets,
        ),
      );
      // The results first: a state is never recorded for a run whose result was lost. When the
      // events store refuses them the checks stay due and run again at the next tick.
      await insertResults(
        events,
        due.map((check, index) => {
          const result = results[index] as ProbeResult;
          return {
            id: newOrderedId(now.getTime()),
            projectId: check.project_id,
            checkId: check.id,
            timestampMs: now.getTime(),
            ok: result.ok,
            statusCode: result.statusCode,
            latencyMs: result.latencyMs,
            error: result.error,
          };
        }),
      );
      let notifications = 0;
      for (const [index, check] of due.entries()) {
        try {
          notifications += await record(check, results[index] as ProbeResult, now);
        } catch (error) {
          logger.error({ err: error, check: check.id }, "uptime check run could not be recorded");
        }
      }
      return { checks: due.length, notifications };
    },
  };
}
