// A project's uptime checks: create (the URL refused when it points at a private address, as for
// webhooks), read with their uptime percentages, change (a changed check runs again at once),
// delete, and their results. Running them is the runner's job (uptime.runner.ts).
import {
  type CreateUptimeCheckBody,
  type UpdateUptimeCheckBody,
  type UptimeCheck,
  type UptimeCheckWithUptime,
  UPTIME_LIMITS,
  type UptimeMethod,
  type UptimeResults,
  type UptimeResultsQuery,
  type UptimeState,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newOrderedId } from "../../lib/ids.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { createNotificationChannelsRepo } from "../../stores/metadata/repos/notification-channels.repo.js";
import {
  createUptimeChecksRepo,
  type UptimeCheckRow,
} from "../../stores/metadata/repos/uptime-checks.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { type ProjectScope, reauthorize } from "../access/index.js";
import { invalidFields, targetProblem } from "../alerts/index.js";
import {
  checkResults,
  UPTIME_WINDOWS_MS,
  uptimePercentages,
} from "../../stores/events/queries/uptime/results.js";

export interface UptimeServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly events: EventsExecutor;
  readonly clock: Clock;
  readonly allowPrivateTargets: boolean;
}

export function toUptimeCheck(row: UptimeCheckRow): UptimeCheck {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    method: row.method as UptimeMethod,
    headers: JSON.parse(row.headers) as Record<string, string>,
    interval_seconds: row.interval_seconds,
    timeout_ms: row.timeout_ms,
    expected_status: row.expected_status,
    body_contains: row.body_contains,
    failure_threshold: row.failure_threshold,
    channel_ids: JSON.parse(row.channel_ids) as string[],
    enabled: Number(row.enabled) === 1,
    state: row.state as UptimeState,
    state_since: row.state_since,
    consecutive_failures: row.consecutive_failures,
    last_checked_at: row.last_checked_at,
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The check's page in the dashboard, under PUBLIC_URL. */
export function checkPagePath(projectSlug: string, checkId: string): string {
  return `/projects/${encodeURIComponent(projectSlug)}/uptime/${checkId}`;
}

export function createUptimeService(deps: UptimeServiceDeps) {
  const { db, events, clock } = deps;
  const checks = createUptimeChecksRepo(db);
  const channels = createNotificationChannelsRepo(db);

  async function findOrThrow(scope: ProjectScope, id: string): Promise<UptimeCheckRow> {
    const row = await checks.find(scope.project.id, id);
    if (row === undefined) throw new AppError("not_found", `Uptime check ${id} not found.`);
    return row;
  }

  /** The URL and the channels: field errors all at once (the timeout's 30 s cap is under the 30 s minimum interval). */
  async function validate(
    scope: ProjectScope,
    check: { url: string; interval_seconds: number; timeout_ms: number },
    channelIds: readonly string[] | undefined,
  ): Promise<void> {
    const errors: Array<{ pointer: string; message: string }> = [];
    const problem = targetProblem(check.url, deps.allowPrivateTargets);
    if (problem !== undefined) errors.push({ pointer: "/url", message: problem });
    if (channelIds !== undefined && channelIds.length > 0) {
      const found = new Set((await channels.findMany(scope.project.id, channelIds)).map((row) => row.id));
      channelIds.forEach((id, index) => {
        if (!found.has(id))
          errors.push({ pointer: `/channel_ids/${index}`, message: "is not a channel of this project" });
      });
    }
    if (errors.length > 0) throw invalidFields(errors);
  }

  async function withUptime(
    scope: ProjectScope,
    rows: readonly UptimeCheckRow[],
  ): Promise<UptimeCheckWithUptime[]> {
    const uptime = await uptimePercentages(
      events,
      scope.project.id,
      rows.map((row) => row.id),
      clock.now().getTime(),
    );
    const none = { last_24h: null, last_7d: null, last_30d: null };
    return rows.map((row) => ({ check: toUptimeCheck(row), uptime: uptime.get(row.id) ?? none }));
  }

  return {
    async create(scope: ProjectScope, body: CreateUptimeCheckBody): Promise<UptimeCheck> {
      const check = {
        url: body.url,
        interval_seconds: body.interval_seconds ?? 60,
        timeout_ms: body.timeout_ms ?? 10_000,
      };
      await validate(scope, check, body.channel_ids);
      const nowDate = clock.now();
      const now = toIsoTimestamp(nowDate);
      const id = newOrderedId(nowDate.getTime());
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "alerts:write");
        const repo = createUptimeChecksRepo(trx);
        if ((await repo.count(scope.project.id)) >= UPTIME_LIMITS.checksPerProject) {
          throw new AppError(
            "limit_reached",
            `A project may have at most ${UPTIME_LIMITS.checksPerProject} uptime checks.`,
          );
        }
        await repo.insert({
          id,
          project_id: scope.project.id,
          name: body.name,
          ...check,
          method: body.method ?? "GET",
          headers: JSON.stringify(body.headers ?? {}),
          expected_status: body.expected_status ?? 200,
          body_contains: body.body_contains ?? null,
          failure_threshold: body.failure_threshold ?? 3,
          channel_ids: JSON.stringify(body.channel_ids ?? []),
          enabled: body.enabled === false ? 0 : 1,
          state: "unknown",
          state_since: null,
          consecutive_failures: 0,
          last_checked_at: null,
          last_error: null,
          // Due at once: the first result comes with the runner's next tick.
          next_check_at: now,
          created_at: now,
          updated_at: now,
        });
      });
      return toUptimeCheck(await findOrThrow(scope, id));
    },

    async list(scope: ProjectScope): Promise<UptimeCheckWithUptime[]> {
      return withUptime(scope, await checks.list(scope.project.id));
    },

    async get(scope: ProjectScope, id: string): Promise<UptimeCheckWithUptime> {
      const [item] = await withUptime(scope, [await findOrThrow(scope, id)]);
      return item as UptimeCheckWithUptime;
    },

    async update(scope: ProjectScope, id: string, body: UpdateUptimeCheckBody): Promise<UptimeCheck> {
      const row = await findOrThrow(scope, id);
      const check = {
        url: body.url ?? row.url,
        interval_seconds: body.interval_seconds ?? row.interval_seconds,
        timeout_ms: body.timeout_ms ?? row.timeout_ms,
      };
      await validate(scope, check, body.channel_ids);
      const now = toIsoTimestamp(clock.now());
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "alerts:write");
        // The state stays (a down check resolves with its next good run); a run under way when
        // this lands is not recorded (its updated_at no longer matches), and the check runs again now.
        await createUptimeChecksRepo(trx).update(scope.project.id, id, {
          ...check,
          ...(body.name === undefined ? {} : { name: body.name }),
          ...(body.method === undefined ? {} : { method: body.method }),
          ...(body.headers === undefined ? {} : { headers: JSON.stringify(body.headers) }),
          ...(body.expected_status === undefined ? {} : { expected_status: body.expected_status }),
          ...(body.body_contains === undefined ? {} : { body_contains: body.body_contains }),
          ...(body.failure_threshold === undefined ? {} : { failure_threshold: body.failure_threshold }),
          ...(body.channel_ids === undefined ? {} : { channel_ids: JSON.stringify(body.channel_ids) }),
          ...(body.enabled === undefined ? {} : { enabled: body.enabled ? 1 : 0 }),
          next_check_at: now,
          updated_at: now,
        });
      });
      return toUptimeCheck(await findOrThrow(scope, id));
    },

    async delete(scope: ProjectScope, id: string): Promise<void> {
      await findOrThrow(scope, id);
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "alerts:write");
        await createUptimeChecksRepo(trx).delete(scope.project.id, id);
      });
    },

    async results(scope: ProjectScope, id: string, query: UptimeResultsQuery): Promise<UptimeResults> {
      await findOrThrow(scope, id);
      const nowMs = clock.now().getTime();
      const untilMs = query.until === undefined ? nowMs : Date.parse(query.until);
      const sinceMs =
        query.since === undefined ? untilMs - UPTIME_WINDOWS_MS.last_24h : Date.parse(query.since);
      if (sinceMs > untilMs) throw invalidFields([{ pointer: "/since", message: "must not be after until" }]);
      return {
        items: await checkResults(events, scope.project.id, id, {
          sinceMs,
          untilMs,
          failuresOnly: query.failures_only ?? false,
          limit: query.limit ?? 200,
        }),
      };
    },
  };
}

export type UptimeService = ReturnType<typeof createUptimeService>;
