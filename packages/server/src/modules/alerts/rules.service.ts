// A project's alert rules: create, read, change (a change to the condition restarts evaluation
// from ok), delete, the history of state changes with each notification's outcome, and test
// notifications sent at once to every channel of a rule. Every change is in the audit log.
import {
  ALERT_LIMITS,
  type AlertBand,
  type AlertBandQuery,
  type AlertEvent,
  type AlertEventsPage,
  type AlertEventsQuery,
  type AlertRule,
  type AlertState,
  type CreateAlertRuleBody,
  type DeliveryStatus,
  type TestNotificationResult,
  type UpdateAlertRuleBody,
  type AlertComparator,
  type ChannelType,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { invalidFields } from "./field-errors.js";
import { newId, newOrderedId } from "../../lib/ids.js";
import {
  type AlertEventRow,
  createAlertEventsRepo,
  type DeliveryRow,
} from "../../stores/metadata/repos/alert-events.repo.js";
import {
  type AlertRuleWithAppRow,
  createAlertRulesRepo,
} from "../../stores/metadata/repos/alert-rules.repo.js";
import { createNotificationChannelsRepo } from "../../stores/metadata/repos/notification-channels.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { type ProjectScope, reauthorize } from "../access/index.js";
import type { AuditTrail } from "../audit/index.js";
import type { MailTransport } from "../auth/index.js";
import type { RateLimiter, RateLimitRule } from "../rate-limits/index.js";
import { anomalyBand } from "./band.service.js";
import { channelTargetOf } from "./channels.service.js";
import { describeFailure } from "./deliveries.worker.js";
import { dashboardLinks, type Notification } from "./notification.js";
import {
  CONDITION_FIELDS,
  definitionFromCreate,
  definitionFromPatch,
  type RuleDefinition,
} from "./rule-input.js";
import { definitionColumns, definitionOf, lastBandOf, notificationRuleOf, toAlertRule } from "./rule-rows.js";
import { sendNotification } from "./senders.js";

export interface RulesServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly events: EventsExecutor;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly mail: MailTransport;
  readonly rateLimiter: RateLimiter;
  readonly publicUrl: string;
  readonly allowPrivateTargets: boolean;
  readonly sendTimeoutMs: number;
}

function toNotificationOutcome(row: DeliveryRow): AlertEvent["notifications"][number] {
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

function toAlertEvent(row: AlertEventRow, deliveries: readonly DeliveryRow[]): AlertEvent {
  return {
    id: row.id,
    from_state: row.from_state as AlertState,
    to_state: row.to_state as AlertState,
    reason: row.reason === "rule_changed" ? "rule_changed" : "evaluation",
    value: row.value,
    threshold: row.threshold,
    comparator: row.comparator as AlertComparator,
    expected: row.expected,
    lower: row.lower,
    upper: row.upper,
    request_count: row.request_count,
    window_start: row.window_start,
    window_end: row.window_end,
    muted: row.muted === 1,
    notifications: deliveries.map(toNotificationOutcome),
    created_at: row.created_at,
  };
}

/** The last band of an anomaly rule, for a test notification to show; null without one. */
function bandEdgesOf(row: AlertRuleWithAppRow): Notification["band"] {
  const band = lastBandOf(row);
  if (band === null || band.expected === null || band.lower === null || band.upper === null) return null;
  return { expected: band.expected, lower: band.lower, upper: band.upper };
}

// A test call sends to every channel of the rule (up to 20 outbound requests): limited per user,
// and per project so a team cannot multiply it, with counters every instance shares.
const TEST_SENDS_PER_USER: RateLimitRule = {
  name: "alert-test-user",
  limit: ALERT_LIMITS.testSendsPerUserPerMinute,
  windowSeconds: 60,
};
const TEST_SENDS_PER_PROJECT: RateLimitRule = {
  name: "alert-test-project",
  limit: ALERT_LIMITS.testSendsPerProjectPerMinute,
  windowSeconds: 60,
};

export function createRulesService(deps: RulesServiceDeps) {
  const { db, clock, audit } = deps;
  const rules = createAlertRulesRepo(db);
  const channels = createNotificationChannelsRepo(db);

  async function findOrThrow(scope: ProjectScope, id: string): Promise<AlertRuleWithAppRow> {
    const row = await rules.find(scope.project.id, id);
    if (row === undefined) throw new AppError("not_found", `Alert rule ${id} not found.`);
    return row;
  }

  async function view(scope: ProjectScope, id: string): Promise<AlertRule> {
    const row = await findOrThrow(scope, id);
    const channelIds = await rules.channelIdsOf([row.id]);
    return toAlertRule(row, channelIds.get(row.id) ?? []);
  }

  /** The app the definition names, resolved among the project's live apps (422 when unknown). */
  async function resolveApp(scope: ProjectScope, definition: RuleDefinition): Promise<string | null> {
    if (definition.app === null) return null;
    const app = await rules.findLiveApp(scope.project.id, definition.app);
    if (app === undefined) {
      throw new AppError("validation_error", `/scope/app: no app "${definition.app}" in this project`, {
        errors: [{ pointer: "/scope/app", message: "is not an app of this project" }],
      });
    }
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
    if (errors.length > 0) {
      throw invalidFields(errors);
    }
  }

  return {
    async list(scope: ProjectScope): Promise<AlertRule[]> {
      const rows = await rules.list(scope.project.id);
      const channelIds = await rules.channelIdsOf(rows.map((row) => row.id));
      return rows.map((row) => toAlertRule(row, channelIds.get(row.id) ?? []));
    },

    get: view,

    async create(scope: ProjectScope, body: CreateAlertRuleBody): Promise<AlertRule> {
      const definition = definitionFromCreate(body);
      const appId = await resolveApp(scope, definition);
      await checkChannels(scope, body.channel_ids);
      const nowDate = clock.now();
      const now = toIsoTimestamp(nowDate);
      const id = newOrderedId(nowDate.getTime());
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "alerts:write");
        const repo = createAlertRulesRepo(trx);
        if ((await repo.count(scope.project.id)) >= ALERT_LIMITS.rulesPerProject) {
          throw new AppError(
            "limit_reached",
            `A project may have at most ${ALERT_LIMITS.rulesPerProject} alert rules.`,
          );
        }
        await repo.insert({
          id,
          project_id: scope.project.id,
          ...definitionColumns(definition, appId),
          state: "ok",
          state_since: now,
          streak: 0,
          last_evaluated_at: null,
          last_value: null,
          created_at: now,
          updated_at: now,
        });
        await repo.setChannels(id, body.channel_ids ?? []);
        await audit.record(trx, {
          projectId: scope.project.id,
          actorId: scope.userId,
          action: "alert_rule.created",
          target: { type: "alert_rule", id, label: definition.name },
          details: { metric: definition.metric },
        });
      });
      return view(scope, id);
    },

    async update(scope: ProjectScope, id: string, body: UpdateAlertRuleBody): Promise<AlertRule> {
      const row = await findOrThrow(scope, id);
      const stored = definitionOf(row);
      const definition = definitionFromPatch(stored, body);
      const appId = await resolveApp(scope, definition);
      await checkChannels(scope, body.channel_ids);
      const changed = (Object.keys(definition) as Array<keyof RuleDefinition>).filter(
        (field) => JSON.stringify(definition[field]) !== JSON.stringify(stored[field]),
      );
      const restart = changed.some((field) => (CONDITION_FIELDS as readonly string[]).includes(field));
      const now = clock.now();
      const at = toIsoTimestamp(now);
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "alerts:write");
        const repo = createAlertRulesRepo(trx);
        await repo.update(id, {
          ...definitionColumns(definition, appId),
          ...(restart ? { state: "ok", streak: 0, ...(row.state === "ok" ? {} : { state_since: at }) } : {}),
          updated_at: at,
        });
        if (body.channel_ids !== undefined) await repo.setChannels(id, body.channel_ids);
        if (restart && row.state !== "ok") {
          // The history says why a pending or firing rule went back to ok without recovering.
          await createAlertEventsRepo(trx).insert({
            id: newOrderedId(now.getTime()),
            rule_id: id,
            project_id: scope.project.id,
            from_state: row.state,
            to_state: "ok",
            reason: "rule_changed",
            value: row.last_value,
            threshold: row.threshold,
            comparator: row.comparator,
            expected: null,
            lower: null,
            upper: null,
            request_count: 0,
            window_start: at,
            window_end: at,
            muted: 0,
            created_at: at,
          });
        }
        const fields = [...changed, ...(body.channel_ids !== undefined ? ["channels"] : [])];
        if (fields.length > 0) {
          await audit.record(trx, {
            projectId: scope.project.id,
            actorId: scope.userId,
            action: "alert_rule.updated",
            target: { type: "alert_rule", id, label: definition.name },
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
        // History and queued notifications go with the rule (cascade).
        await createAlertRulesRepo(trx).delete(id);
        await audit.record(trx, {
          projectId: scope.project.id,
          actorId: scope.userId,
          action: "alert_rule.deleted",
          target: { type: "alert_rule", id, label: row.name },
          details: { metric: row.metric },
        });
      });
    },

    async events(scope: ProjectScope, id: string, query: AlertEventsQuery): Promise<AlertEventsPage> {
      await findOrThrow(scope, id);
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? 50;
      const history = createAlertEventsRepo(db);
      const { rows, total } = await history.page(id, { limit: pageSize, offset: (page - 1) * pageSize });
      const deliveries = await history.deliveriesOf(rows.map((row) => row.id));
      return {
        items: rows.map((row) =>
          toAlertEvent(
            row,
            deliveries.filter((delivery) => delivery.event_id === row.id),
          ),
        ),
        total_count: total,
        page,
        page_size: pageSize,
      };
    },

    /** The value and band of an anomaly rule, window by window, over a span (the rule page's chart). */
    async band(scope: ProjectScope, id: string, query: AlertBandQuery): Promise<AlertBand> {
      return anomalyBand(deps, await findOrThrow(scope, id), query);
    },

    /** Sends a test notification to each of the rule's channels now (no retries) and reports each. */
    async test(scope: ProjectScope, id: string): Promise<TestNotificationResult> {
      const row = await findOrThrow(scope, id);
      await deps.rateLimiter.consume(
        TEST_SENDS_PER_USER,
        scope.userId,
        `At most ${TEST_SENDS_PER_USER.limit} test notifications a minute per user.`,
      );
      await deps.rateLimiter.consume(
        TEST_SENDS_PER_PROJECT,
        scope.project.id,
        `At most ${TEST_SENDS_PER_PROJECT.limit} test notifications a minute per project.`,
      );
      const ids = (await rules.channelIdsOf([id])).get(id) ?? [];
      const channelRows = await channels.findMany(scope.project.id, ids);
      const now = clock.now();
      const ruleView = notificationRuleOf(row);
      const window = {
        start: toIsoTimestamp(new Date(now.getTime() - row.window_seconds * 1000)),
        end: toIsoTimestamp(now),
      };
      const notification: Notification = {
        kind: "test",
        event_id: null,
        occurred_at: toIsoTimestamp(now),
        project: { id: scope.project.id, slug: scope.project.slug, name: scope.project.name },
        rule: ruleView,
        value: row.last_value,
        band: bandEdgesOf(row),
        request_count: 0,
        window,
        links: dashboardLinks(deps.publicUrl, scope.project.slug, id, ruleView.scope, window),
      };
      const results = await Promise.all(
        channelRows.map(async (channel) => {
          try {
            const target = await channelTargetOf(channel, (projectId) => channels.memberEmails(projectId));
            await sendNotification(target, notification, `test-${newId()}`, {
              mail: deps.mail,
              allowPrivateTargets: deps.allowPrivateTargets,
              timeoutMs: deps.sendTimeoutMs,
              nowSeconds: () => Math.floor(clock.now().getTime() / 1000),
            });
            return { ok: true, error: null };
          } catch (error) {
            return { ok: false, error: describeFailure(error) };
          }
        }),
      );
      return {
        results: channelRows.map((channel, index) => ({
          channel_id: channel.id,
          channel_name: channel.name,
          type: channel.type as ChannelType,
          ok: results[index]?.ok ?? false,
          error: results[index]?.error ?? null,
        })),
      };
    },
  };
}

export type RulesService = ReturnType<typeof createRulesService>;
