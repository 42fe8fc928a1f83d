// One evaluation pass over every enabled rule: rules are grouped by project and window so one
// events-store statement serves each group; each rule's observation moves it through the state
// machine; state, history and the notifications to send are written in one metadata transaction
// (the notifications as outbox rows, sent by the delivery worker). Anomaly rules read their
// seasonal buckets instead of one window and are judged by the anomaly model (ADR 0020); silence
// rules read the newest heartbeats of the project's apps from the metadata store (ADR 0022).
import type { AlertComparator, AlertState, AnomalyBand } from "@sightline/contracts";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { toIsoTimestamp } from "../../clock.js";
import { newOrderedId } from "../../lib/ids.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { createAlertEventsRepo } from "../../stores/metadata/repos/alert-events.repo.js";
import { createAppHeartbeatsRepo } from "../../stores/metadata/repos/app-heartbeats.repo.js";
import {
  createAlertRulesRepo,
  type EvaluableRuleRow,
  type RuleEvaluationUpdate,
} from "../../stores/metadata/repos/alert-rules.repo.js";
import { createNotificationChannelsRepo } from "../../stores/metadata/repos/notification-channels.repo.js";
import { createNotificationDeliveriesRepo } from "../../stores/metadata/repos/notification-deliveries.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { type Observation, observe } from "../../stores/events/queries/alerts/metrics.js";
import {
  ANOMALY_MODEL,
  type AnomalyVerdict,
  evaluateAnomaly,
  historyAt,
  levelBucketsOf,
} from "./anomaly-model.js";
import { type AnomalySpec, readBuckets } from "../../stores/events/queries/alerts/anomaly.js";
import { dashboardLinks, type Notification } from "./notification.js";
import { anomalyParamsOf, metricSpecOf, notificationRuleOf } from "./rule-rows.js";
import { judgeSilence, type SilenceVerdict } from "./silence.js";
import { breaches, nextState, type Transition } from "./state-machine.js";

export interface EvaluatorDeps {
  readonly db: Kysely<MetadataTables>;
  readonly events: EventsExecutor;
  readonly logger: Logger;
  readonly publicUrl: string;
  /** How far behind now a window ends: records still in the ingest writer are not missed. */
  readonly latenessMs: number;
  /** A rule evaluated less than this long ago is skipped (a second evaluator during a lease handover). */
  readonly minGapMs: number;
}

export interface PassSummary {
  readonly rules: number;
  readonly groups: number;
  readonly transitions: number;
  readonly notifications: number;
  readonly failedGroups: number;
}

interface Evaluated {
  readonly rule: EvaluableRuleRow;
  readonly observation: Observation;
  readonly transition: Transition;
  readonly windowStartMs: number;
  readonly windowEndMs: number;
  /** Anomaly rules: the model's verdict (band and where the value stood). */
  readonly verdict?: AnomalyVerdict;
  /** Silence rules: how long the scope has been silent, and which apps are. */
  readonly silence?: SilenceVerdict;
}

/** The band as the API shows it (rule's `last_band`, band chart points). */
export function bandOf(verdict: AnomalyVerdict): AnomalyBand {
  return {
    status: verdict.status,
    expected: verdict.expected,
    lower: verdict.lower,
    upper: verdict.upper,
    score: verdict.score,
    weeks_used: verdict.weeksUsed,
  };
}

/** Expected value and band edges for a notification; null for threshold rules and while warming up. */
function edgesOf(verdict: AnomalyVerdict | undefined): Notification["band"] {
  if (verdict === undefined || verdict.expected === null || verdict.lower === null || verdict.upper === null)
    return null;
  return { expected: verdict.expected, lower: verdict.lower, upper: verdict.upper };
}

/** The edge of the band an anomaly event is reported against, as comparator and threshold. */
function edgeOf(
  verdict: AnomalyVerdict | undefined,
): { comparator: AlertComparator; threshold: number } | null {
  if (verdict === undefined || verdict.expected === null || verdict.lower === null || verdict.upper === null)
    return null;
  return (verdict.value ?? verdict.expected) < verdict.expected
    ? { comparator: "lt", threshold: verdict.lower }
    : { comparator: "gt", threshold: verdict.upper };
}

export interface Evaluator {
  /** Evaluates every due rule as of `now`. */
  evaluate(now: Date): Promise<PassSummary>;
}

export function createEvaluator(deps: EvaluatorDeps): Evaluator {
  const { db, events, logger } = deps;
  const rules = createAlertRulesRepo(db);

  async function evaluateGroup(
    group: readonly EvaluableRuleRow[],
    windowEndMs: number,
    nowMs: number,
  ): Promise<Evaluated[]> {
    const first = group[0] as EvaluableRuleRow;
    if (first.kind === "silence") return evaluateSilenceGroup(group, nowMs);
    const windowStartMs = windowEndMs - first.window_seconds * 1000;
    if (first.kind === "anomaly") return evaluateAnomalyGroup(group, windowStartMs, windowEndMs);
    const observations = await observe(
      events,
      { projectId: first.project_id, startMs: windowStartMs, endMs: windowEndMs },
      group.map(metricSpecOf),
    );
    return group.map((rule, index) => {
      const observation = observations[index] as Observation;
      const enough = rule.metric === "request_count" || observation.requestCount >= rule.min_requests;
      const condition = {
        comparator: rule.comparator as AlertComparator,
        threshold: rule.threshold,
        forEvaluations: rule.for_evaluations,
      };
      const transition = nextState(
        { state: rule.state as AlertState, streak: rule.streak },
        enough && breaches(observation.value, condition),
        condition,
      );
      return { rule, observation, transition, windowStartMs, windowEndMs };
    });
  }

  async function evaluateAnomalyGroup(
    group: readonly EvaluableRuleRow[],
    windowStartMs: number,
    windowEndMs: number,
  ): Promise<Evaluated[]> {
    const first = group[0] as EvaluableRuleRow;
    const buckets = await readBuckets(
      events,
      {
        projectId: first.project_id,
        endMs: windowEndMs,
        windowSeconds: first.window_seconds,
        buckets: levelBucketsOf(first.window_seconds) + 1,
        weeks: ANOMALY_MODEL.weeks,
        ahead: ANOMALY_MODEL.baselineNeighbours,
      },
      group.map((rule) => metricSpecOf(rule) as AnomalySpec),
    );
    return group.map((rule, index) => {
      const history = historyAt(buckets[index] as (typeof buckets)[number], rule.window_seconds);
      const verdict = evaluateAnomaly(history, anomalyParamsOf(rule));
      const transition = nextState({ state: rule.state as AlertState, streak: rule.streak }, verdict.breach, {
        forEvaluations: rule.for_evaluations,
      });
      const observation = { requestCount: history.now.current.requests, value: verdict.value };
      return { rule, observation, transition, windowStartMs, windowEndMs, verdict };
    });
  }

  /**
   * Heartbeats are written to the metadata store as they arrive, with no ingest writer between:
   * silence is judged at `now`, not at the lagged window end of request-based rules.
   */
  async function evaluateSilenceGroup(
    group: readonly EvaluableRuleRow[],
    nowMs: number,
  ): Promise<Evaluated[]> {
    const first = group[0] as EvaluableRuleRow;
    const beats = await createAppHeartbeatsRepo(db).newestByEnvironment(first.project_id);
    return group.map((rule) => {
      const silence = judgeSilence(
        beats,
        { appId: rule.app_id, environment: rule.environment },
        rule.window_seconds,
        nowMs,
      );
      const transition = nextState({ state: rule.state as AlertState, streak: rule.streak }, silence.breach, {
        forEvaluations: rule.for_evaluations,
      });
      const observation = { requestCount: 0, value: silence.value };
      return {
        rule,
        observation,
        transition,
        windowStartMs: nowMs - rule.window_seconds * 1000,
        windowEndMs: nowMs,
        silence,
      };
    });
  }

  function notificationOf(item: Evaluated, eventId: string, at: string): Notification {
    const { rule } = item;
    const ruleView = notificationRuleOf(rule);
    const window = {
      start: toIsoTimestamp(new Date(item.windowStartMs)),
      end: toIsoTimestamp(new Date(item.windowEndMs)),
    };
    return {
      kind: item.transition.state === "firing" ? "firing" : "resolved",
      event_id: eventId,
      occurred_at: at,
      project: { id: rule.project_id, slug: rule.project_slug, name: rule.project_name },
      rule: ruleView,
      value: item.observation.value,
      band: edgesOf(item.verdict),
      request_count: item.observation.requestCount,
      ...(item.silence === undefined
        ? {}
        : {
            silence: {
              last_heartbeat_at: item.silence.lastHeartbeatAt,
              silent_apps: item.silence.silentApps,
            },
          }),
      window,
      links: dashboardLinks(deps.publicUrl, rule.project_slug, rule.id, ruleView.scope, window),
    };
  }

  async function persist(evaluated: readonly Evaluated[], now: Date): Promise<number> {
    const at = toIsoTimestamp(now);
    const changed = evaluated.filter((item) => item.transition.changedFrom !== undefined);
    const notifying = changed.filter(
      (item) => item.transition.notify && !(item.rule.muted_until !== null && item.rule.muted_until > at),
    );
    let notifications = 0;
    await db.transaction().execute(async (trx) => {
      const updates: RuleEvaluationUpdate[] = evaluated.map((item) => ({
        id: item.rule.id,
        state: item.transition.state,
        stateSince: item.transition.changedFrom === undefined ? item.rule.state_since : at,
        streak: item.transition.streak,
        lastValue: item.observation.value,
        lastBand: item.verdict === undefined ? null : JSON.stringify(bandOf(item.verdict)),
        updatedAt: item.rule.updated_at,
      }));
      await createAlertRulesRepo(trx).saveEvaluations(updates, at);
      const history = createAlertEventsRepo(trx);
      const eventIds = new Map<string, string>();
      for (const item of changed) {
        const id = newOrderedId(now.getTime());
        eventIds.set(item.rule.id, id);
        const muted = item.rule.muted_until !== null && item.rule.muted_until > at;
        const edge = item.rule.kind === "anomaly" ? edgeOf(item.verdict) : null;
        await history.insert({
          id,
          rule_id: item.rule.id,
          project_id: item.rule.project_id,
          from_state: item.transition.changedFrom as string,
          to_state: item.transition.state,
          reason: "evaluation",
          value: item.observation.value,
          threshold: edge?.threshold ?? item.rule.threshold,
          comparator: edge?.comparator ?? item.rule.comparator,
          expected: item.verdict?.expected ?? null,
          lower: item.verdict?.lower ?? null,
          upper: item.verdict?.upper ?? null,
          request_count: item.observation.requestCount,
          window_start: toIsoTimestamp(new Date(item.windowStartMs)),
          window_end: toIsoTimestamp(new Date(item.windowEndMs)),
          muted: muted ? 1 : 0,
          created_at: at,
        });
      }
      const channelRows = await createNotificationChannelsRepo(trx).listForRules(
        notifying.map((item) => item.rule.id),
      );
      const outbox = notifying.flatMap((item) => {
        const eventId = eventIds.get(item.rule.id) as string;
        const payload = JSON.stringify(notificationOf(item, eventId, at));
        return channelRows
          .filter((channel) => channel.rule_id === item.rule.id)
          .map((channel) => ({
            id: newOrderedId(now.getTime()),
            project_id: item.rule.project_id,
            event_id: eventId,
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
          }));
      });
      await createNotificationDeliveriesRepo(trx).insertMany(outbox);
      notifications = outbox.length;
    });
    for (const item of changed) {
      logger.info(
        {
          rule: item.rule.id,
          project: item.rule.project_slug,
          from: item.transition.changedFrom,
          to: item.transition.state,
          value: item.observation.value,
        },
        "alert rule changed state",
      );
    }
    return notifications;
  }

  return {
    async evaluate(now) {
      const due = (await rules.listEvaluable()).filter(
        (rule) =>
          rule.last_evaluated_at === null ||
          Date.parse(rule.last_evaluated_at) <= now.getTime() - deps.minGapMs,
      );
      const groups = new Map<string, EvaluableRuleRow[]>();
      for (const rule of due) {
        const key = `${rule.project_id}|${rule.kind}|${rule.window_seconds}`;
        const group = groups.get(key);
        if (group === undefined) groups.set(key, [rule]);
        else group.push(rule);
      }
      const windowEndMs = now.getTime() - deps.latenessMs;
      const evaluated: Evaluated[] = [];
      let failedGroups = 0;
      for (const group of groups.values()) {
        try {
          evaluated.push(...(await evaluateGroup(group, windowEndMs, now.getTime())));
        } catch (error) {
          // The group keeps its state and is tried again next pass; other projects go on.
          failedGroups += 1;
          logger.error(
            { err: error, project: group[0]?.project_id, window: group[0]?.window_seconds },
            "alert evaluation of a group failed",
          );
        }
      }
      const notifications = evaluated.length === 0 ? 0 : await persist(evaluated, now);
      return {
        rules: evaluated.length,
        groups: groups.size,
        transitions: evaluated.filter((item) => item.transition.changedFrom !== undefined).length,
        notifications,
        failedGroups,
      };
    },
  };
}
