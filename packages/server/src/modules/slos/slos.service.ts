// A project's SLOs: create (one by one, or the same objective for each of the busiest consumers),
// read with their computed status (attainment, error budget, burn rates, the failing requests as
// a request search), the daily budget burn-down, change (a change to what is measured starts
// burn-rate alerting again from ok), delete, and the history of burn-rate state changes.
import {
  type BadRequestsFilter,
  type ChannelType,
  type CreateSloBody,
  type DeliveryStatus,
  type NotificationOutcome,
  type PerConsumerSloBody,
  type Slo,
  type SloBurnDown,
  SLO_BURN_WINDOWS_MINUTES,
  SLO_LIMITS,
  type SloEventsPage,
  type SloState,
  type SloStatus,
  type SlosQuery,
  type SloWithStatus,
  type UpdateSloBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newOrderedId } from "../../lib/ids.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { createAlertRulesRepo } from "../../stores/metadata/repos/alert-rules.repo.js";
import { createNotificationChannelsRepo } from "../../stores/metadata/repos/notification-channels.repo.js";
import {
  createSlosRepo,
  type SloDeliveryRow,
  type SloEventRow,
  type SloWithAppRow,
} from "../../stores/metadata/repos/slos.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { type ProjectScope, reauthorize } from "../access/index.js";
import { invalidFields } from "../alerts/index.js";
import type { AuditTrail } from "../audit/index.js";
import { normaliseRouteTemplate } from "../ingest/index.js";
import { allowedBad, attainment, budgetRemaining, burnRate } from "./slo-math.js";
import {
  CONDITION_PARTS,
  definitionFromCreate,
  definitionFromPatch,
  forConsumer,
  type SloDefinition,
  splitStatuses,
} from "./slo-input.js";
import { definitionColumns, definitionOf, specOf, specOfDefinition, toSlo } from "./slo-rows.js";
import {
  type Counts,
  countDays,
  countWindows,
  DAY_MS,
  topConsumers,
} from "../../stores/events/queries/slos/slo.js";

export interface SlosServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly events: EventsExecutor;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

const MINUTE_MS = 60_000;

/** The windows a status reads, objective window first, then the burn-rate windows. */
const statusWindowsMs = (row: SloWithAppRow): number[] => [
  row.window_days * DAY_MS,
  ...SLO_BURN_WINDOWS_MINUTES.map((minutes) => minutes * MINUTE_MS),
];

function toOutcome(row: SloDeliveryRow): NotificationOutcome {
  return {
    channel_id: row.channel_id,
    channel_name: row.channel_name,
    type: row.channel_type as ChannelType,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    last_error: row.last_error,
    next_attempt_at: row.status === "pending" ? row.next_attempt_at : null,
    delivered_at: row.delivered_at,
  };
}

function toSloEvent(row: SloEventRow, deliveries: readonly SloDeliveryRow[]): SloEventsPage["items"][number] {
  return {
    id: row.id,
    from_state: row.from_state as SloState,
    to_state: row.to_state as SloState,
    reason: row.reason === "slo_changed" ? "slo_changed" : "evaluation",
    long_burn_rate: row.long_burn_rate,
    short_burn_rate: row.short_burn_rate,
    long_window_minutes: row.long_window_minutes,
    short_window_minutes: row.short_window_minutes,
    threshold: row.threshold,
    window_end: row.window_end,
    notifications: deliveries.map(toOutcome),
    created_at: row.created_at,
  };
}

/**
 * The requests that spent the budget, as the request search and the dashboard's Requests page
 * take them (the page names its keys differently). The search's `until` is inclusive and the
 * window's end is not, hence one millisecond less. A group of endpoints or a consumer group
 * cannot be said in either: they then show a superset, and say so.
 */
export function badRequestsFilter(row: SloWithAppRow, startMs: number, endMs: number): BadRequestsFilter {
  const definition = definitionOf(row);
  const query: Record<string, string> = {
    since: toIsoTimestamp(new Date(startMs)),
    until: toIsoTimestamp(new Date(endMs - 1)),
  };
  const page: Record<string, string> = { since: query.since as string, until: query.until as string };
  if (row.app_slug !== null) query.app_slugs = page.app = row.app_slug;
  if (row.environment !== null) query.environment = page.env = row.environment;
  const [only] = definition.endpoints;
  if (definition.endpoints.length === 1 && only !== undefined) {
    query.methods = page.method = only.method;
    query.route = page.route = only.route;
  }
  if (row.consumer_id !== null) query.consumer = page.consumer = row.consumer_id;
  const { sli } = definition;
  if (sli.kind === "latency") {
    query.min_response_time = page.min_ms = String(sli.thresholdMs);
  } else {
    const { codes, classes } = splitStatuses(sli.alsoBad);
    query.status_classes = page.status = [5, ...classes]
      .sort()
      .map((cls) => `${cls}xx`)
      .join(",");
    if (codes.length > 0) query.status_codes = page.codes = codes.join(",");
  }
  const project = encodeURIComponent(row.project_slug);
  return {
    query,
    api_path: `/api/v1/projects/${project}/data/requests?${new URLSearchParams(query).toString()}`,
    dashboard_path: `/projects/${project}/requests?${new URLSearchParams(page).toString()}`,
    exact: definition.endpoints.length <= 1 && row.consumer_group === null,
  };
}

/** The status of `row` from its counts over statusWindowsMs, ending at `endMs`. */
function statusOf(row: SloWithAppRow, counts: readonly Counts[], endMs: number): SloStatus {
  const empty = { requests: 0, bad: 0 };
  const windowCounts = counts[0] ?? empty;
  const startMs = endMs - row.window_days * DAY_MS;
  const reached = attainment(windowCounts);
  return {
    slo_id: row.id,
    window_start: toIsoTimestamp(new Date(startMs)),
    window_end: toIsoTimestamp(new Date(endMs)),
    requests: windowCounts.requests,
    bad: windowCounts.bad,
    attainment: reached,
    meeting: reached === null ? null : windowCounts.bad <= allowedBad(windowCounts.requests, row.target),
    error_budget: {
      allowed_bad: allowedBad(windowCounts.requests, row.target),
      remaining: budgetRemaining(windowCounts, row.target),
    },
    burn_rates: SLO_BURN_WINDOWS_MINUTES.map((minutes, index) => {
      const window = counts[index + 1] ?? empty;
      return { minutes, requests: window.requests, bad: window.bad, burn_rate: burnRate(window, row.target) };
    }),
    state: row.state as SloState,
    bad_requests: badRequestsFilter(row, startMs, endMs),
  };
}

/** Whether the SLO measures requests of the app / endpoint / consumer the query names. */
function covers(row: SloWithAppRow, query: SlosQuery): boolean {
  if (query.app !== undefined && row.app_id !== null && row.app_slug !== query.app) return false;
  if (query.method !== undefined && query.route !== undefined) {
    const method = query.method.toUpperCase();
    const route = normaliseRouteTemplate(query.route.trim());
    const endpoints = definitionOf(row).endpoints;
    if (endpoints.length > 0 && !endpoints.some((e) => e.method === method && e.route === route))
      return false;
  }
  // A consumer group's membership is not in the metadata: only SLOs that do not narrow to a
  // group, or narrow to this consumer, are said to cover it.
  if (query.consumer !== undefined) {
    if (row.consumer_group !== null) return false;
    if (row.consumer_id !== null && row.consumer_id !== query.consumer) return false;
  }
  return true;
}

export function createSlosService(deps: SlosServiceDeps) {
  const { db, events, clock, audit } = deps;
  const slos = createSlosRepo(db);
  const channels = createNotificationChannelsRepo(db);

  async function findOrThrow(scope: ProjectScope, id: string): Promise<SloWithAppRow> {
    const row = await slos.find(scope.project.id, id);
    if (row === undefined) throw new AppError("not_found", `SLO ${id} not found.`);
    return row;
  }

  async function view(scope: ProjectScope, id: string): Promise<Slo> {
    const row = await findOrThrow(scope, id);
    return toSlo(row, (await slos.channelIdsOf([id])).get(id) ?? []);
  }

  async function resolveApp(scope: ProjectScope, definition: SloDefinition): Promise<string | null> {
    if (definition.app === null) return null;
    const app = await createAlertRulesRepo(db).findLiveApp(scope.project.id, definition.app);
    if (app === undefined)
      throw invalidFields([{ pointer: "/scope/app", message: "is not an app of this project" }]);
    return app.id;
  }

  async function checkChannels(scope: ProjectScope, ids: readonly string[] | undefined): Promise<void> {
    if (ids === undefined || ids.length === 0) return;
    const found = new Set((await channels.findMany(scope.project.id, ids)).map((row) => row.id));
    const errors = ids.flatMap((id, index) =>
      found.has(id)
        ? []
        : [{ pointer: `/channel_ids/${index}`, message: "is not a channel of this project" }],
    );
    if (errors.length > 0) throw invalidFields(errors);
  }

  /** Inserts the definitions in one transaction, within the project's limit; returns their ids. */
  async function insertAll(
    scope: ProjectScope,
    definitions: readonly SloDefinition[],
    appId: string | null,
    channelIds: readonly string[],
  ): Promise<string[]> {
    const nowDate = clock.now();
    const now = toIsoTimestamp(nowDate);
    const ids = definitions.map(() => newOrderedId(nowDate.getTime()));
    await db.transaction().execute(async (trx) => {
      await reauthorize(trx, scope, "alerts:write");
      const repo = createSlosRepo(trx);
      if ((await repo.count(scope.project.id)) + definitions.length > SLO_LIMITS.slosPerProject) {
        throw new AppError("limit_reached", `A project may have at most ${SLO_LIMITS.slosPerProject} SLOs.`);
      }
      for (const [index, definition] of definitions.entries()) {
        const id = ids[index] as string;
        await repo.insert({
          id,
          project_id: scope.project.id,
          ...definitionColumns(definition, appId),
          state: "ok",
          state_since: now,
          last_evaluated_at: null,
          created_at: now,
          updated_at: now,
        });
        await repo.setChannels(id, channelIds);
        await audit.record(trx, {
          projectId: scope.project.id,
          actorId: scope.userId,
          action: "slo.created",
          target: { type: "slo", id, label: definition.name },
          details: {
            sli: definition.sli.kind,
            target: definition.target,
            window_days: definition.windowDays,
          },
        });
      }
    });
    return ids;
  }

  return {
    async list(scope: ProjectScope, query: SlosQuery): Promise<SloWithStatus[]> {
      if ((query.method === undefined) !== (query.route === undefined)) {
        throw invalidFields([
          {
            pointer: query.method === undefined ? "/method" : "/route",
            message: "method and route go together",
          },
        ]);
      }
      const rows = (await slos.list(scope.project.id)).filter((row) => covers(row, query));
      const channelIds = await slos.channelIdsOf(rows.map((row) => row.id));
      const endMs = clock.now().getTime();
      const counts =
        query.include_status === true
          ? await countWindows(events, scope.project.id, endMs, rows.map(specOf), rows.map(statusWindowsMs))
          : undefined;
      return rows.map((row, index) => ({
        slo: toSlo(row, channelIds.get(row.id) ?? []),
        status: counts === undefined ? null : statusOf(row, counts[index] ?? [], endMs),
      }));
    },

    get: view,

    async status(scope: ProjectScope, id: string): Promise<SloStatus> {
      const row = await findOrThrow(scope, id);
      const endMs = clock.now().getTime();
      const [counts] = await countWindows(
        events,
        scope.project.id,
        endMs,
        [specOf(row)],
        [statusWindowsMs(row)],
      );
      return statusOf(row, counts ?? [], endMs);
    },

    /** Bad requests per UTC day over the window, and how much of the window's budget each spent. */
    async burnDown(scope: ProjectScope, id: string): Promise<SloBurnDown> {
      const row = await findOrThrow(scope, id);
      const endMs = clock.now().getTime();
      const startMs = endMs - row.window_days * DAY_MS;
      const byDay = await countDays(events, scope.project.id, specOf(row), { startMs, endMs });
      const total = [...byDay.values()].reduce((sum, day) => sum + day.requests, 0);
      const budget = allowedBad(total, row.target);
      const days: SloBurnDown["days"] = [];
      let spent = 0;
      for (let day = Math.floor(startMs / DAY_MS); day * DAY_MS < endMs; day += 1) {
        const counts = byDay.get(day) ?? { requests: 0, bad: 0 };
        spent += counts.bad;
        days.push({
          date: new Date(day * DAY_MS).toISOString().slice(0, 10),
          requests: counts.requests,
          bad: counts.bad,
          budget_spent: total === 0 ? null : (counts.bad * 100 * 100) / (total * (100 - row.target)),
          budget_remaining: total === 0 ? null : 100 - (spent * 100 * 100) / (total * (100 - row.target)),
          burn_rate: burnRate(counts, row.target),
        });
      }
      return {
        slo_id: row.id,
        window_start: toIsoTimestamp(new Date(startMs)),
        window_end: toIsoTimestamp(new Date(endMs)),
        allowed_bad: budget,
        days,
      };
    },

    async create(scope: ProjectScope, body: CreateSloBody): Promise<Slo> {
      const definition = definitionFromCreate(body);
      const appId = await resolveApp(scope, definition);
      await checkChannels(scope, body.channel_ids);
      const [id] = await insertAll(scope, [definition], appId, body.channel_ids ?? []);
      return view(scope, id as string);
    },

    /** The template's SLO for each of the `top` consumers with the most requests in its scope over its window. */
    async createPerConsumer(scope: ProjectScope, body: PerConsumerSloBody): Promise<Slo[]> {
      const template = definitionFromCreate({
        ...body.template,
        ...(body.scope === undefined ? {} : { scope: body.scope }),
      });
      const appId = await resolveApp(scope, template);
      await checkChannels(scope, body.template.channel_ids);
      const endMs = clock.now().getTime();
      const consumers = await topConsumers(
        events,
        scope.project.id,
        specOfDefinition(template, appId).scope,
        { startMs: endMs - template.windowDays * DAY_MS, endMs },
        body.top,
      );
      if (consumers.length === 0) return [];
      const ids = await insertAll(
        scope,
        consumers.map(({ consumer }) => forConsumer(template, consumer)),
        appId,
        body.template.channel_ids ?? [],
      );
      const rows = (await slos.list(scope.project.id)).filter((row) => ids.includes(row.id));
      const channelIds = await slos.channelIdsOf(ids);
      const byId = new Map(rows.map((row) => [row.id, toSlo(row, channelIds.get(row.id) ?? [])]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async update(scope: ProjectScope, id: string, body: UpdateSloBody): Promise<Slo> {
      const row = await findOrThrow(scope, id);
      const stored = definitionOf(row);
      const definition = definitionFromPatch(stored, body);
      const appId = await resolveApp(scope, definition);
      await checkChannels(scope, body.channel_ids);
      const changed = (Object.keys(definition) as Array<keyof SloDefinition>).filter(
        (part) => JSON.stringify(definition[part]) !== JSON.stringify(stored[part]),
      );
      const restart = changed.some((part) => (CONDITION_PARTS as readonly string[]).includes(part));
      const now = clock.now();
      const at = toIsoTimestamp(now);
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "alerts:write");
        const repo = createSlosRepo(trx);
        await repo.update(id, {
          ...definitionColumns(definition, appId),
          ...(restart && row.state !== "ok" ? { state: "ok", state_since: at } : {}),
          updated_at: at,
        });
        if (body.channel_ids !== undefined) await repo.setChannels(id, body.channel_ids);
        if (restart && row.state !== "ok") {
          // The history says why a burning SLO went back to ok without recovering.
          await repo.insertEvent({
            id: newOrderedId(now.getTime()),
            slo_id: id,
            project_id: scope.project.id,
            from_state: row.state,
            to_state: "ok",
            reason: "slo_changed",
            long_burn_rate: null,
            short_burn_rate: null,
            long_window_minutes: row.state === "fast_burn" ? row.fast_long_minutes : row.slow_long_minutes,
            short_window_minutes: row.state === "fast_burn" ? row.fast_short_minutes : row.slow_short_minutes,
            threshold: row.state === "fast_burn" ? row.fast_burn_rate : row.slow_burn_rate,
            window_end: at,
            created_at: at,
          });
        }
        const fields = [...changed, ...(body.channel_ids !== undefined ? ["channels"] : [])];
        if (fields.length > 0) {
          await audit.record(trx, {
            projectId: scope.project.id,
            actorId: scope.userId,
            action: "slo.updated",
            target: { type: "slo", id, label: definition.name },
            details: { changed: fields },
          });
        }
      });
      return view(scope, id);
    },

    async delete(scope: ProjectScope, id: string): Promise<void> {
      const row = await findOrThrow(scope, id);
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "alerts:write");
        // History and queued notifications go with the SLO (cascade).
        await createSlosRepo(trx).delete(id);
        await audit.record(trx, {
          projectId: scope.project.id,
          actorId: scope.userId,
          action: "slo.deleted",
          target: { type: "slo", id, label: row.name },
          details: {},
        });
      });
    },

    async events(
      scope: ProjectScope,
      id: string,
      query: { page?: number; page_size?: number },
    ): Promise<SloEventsPage> {
      await findOrThrow(scope, id);
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? 50;
      const { rows, total } = await slos.eventsPage(id, { limit: pageSize, offset: (page - 1) * pageSize });
      const deliveries = await slos.deliveriesOf(rows.map((row) => row.id));
      return {
        items: rows.map((row) =>
          toSloEvent(
            row,
            deliveries.filter((delivery) => delivery.slo_event_id === row.id),
          ),
        ),
        total_count: total,
        page,
        page_size: pageSize,
      };
    },
  };
}

export type SlosService = ReturnType<typeof createSlosService>;
