// SLO burn-rate alerting, one pass at a time under the alert evaluator's lease: every SLO with
// alerting on gets the burn rates of its policy's four windows (one events-store statement per
// project), the policy gives its state, and each change is recorded as an SLO event with its
// notifications queued in the shared outbox — one metadata transaction — for the alert delivery
// worker to send through the project's channels.
import type { SloState } from "@sightline/contracts";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { toIsoTimestamp } from "../../clock.js";
import { newOrderedId } from "../../lib/ids.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { createNotificationDeliveriesRepo } from "../../stores/metadata/repos/notification-deliveries.repo.js";
import { createSlosRepo, type SloWithAppRow } from "../../stores/metadata/repos/slos.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { EvaluationPass, SloNotification } from "../alerts/index.js";
import { burnRate, policyState, policyWindowsMinutes, type SloTransition, transitionOf } from "./slo-math.js";
import { definitionOf, describeScope, sloPagePath, specOf } from "./slo-rows.js";
import { countWindows } from "../../stores/events/queries/slos/slo.js";

export interface SloEvaluatorDeps {
  readonly db: Kysely<MetadataTables>;
  readonly events: EventsExecutor;
  readonly logger: Logger;
  readonly publicUrl: string;
  /** How far behind now the windows end: records still in the ingest writer are not missed. */
  readonly latenessMs: number;
  /** An SLO evaluated less than this long ago is skipped (a second evaluator during a lease handover). */
  readonly minGapMs: number;
}

interface Evaluated {
  readonly slo: SloWithAppRow;
  readonly state: SloState;
  /** Long and short burn rates of the fast and the slow condition. */
  readonly rates: { fast: [number | null, number | null]; slow: [number | null, number | null] };
  readonly transition: SloTransition | undefined;
}

const MINUTE_MS = 60_000;

/** The condition a change is about: the one that fires, or for a resolution the one that had. */
function severityOf(transition: SloTransition): "fast" | "slow" {
  return (transition.to === "ok" ? transition.from : transition.to) === "fast_burn" ? "fast" : "slow";
}

export function createSloEvaluator(deps: SloEvaluatorDeps): EvaluationPass {
  const { db, events, logger } = deps;
  const slos = createSlosRepo(db);

  async function evaluateProject(group: readonly SloWithAppRow[], endMs: number): Promise<Evaluated[]> {
    const first = group[0] as SloWithAppRow;
    const policies = group.map((slo) => definitionOf(slo).alerting);
    const counts = await countWindows(
      events,
      first.project_id,
      endMs,
      group.map(specOf),
      policies.map((policy) => policyWindowsMinutes(policy).map((minutes) => minutes * MINUTE_MS)),
    );
    return group.map((slo, index) => {
      const policy = policies[index] as (typeof policies)[number];
      const rates = (counts[index] ?? []).map((windowCounts) => burnRate(windowCounts, slo.target));
      const [fastLong = null, fastShort = null, slowLong = null, slowShort = null] = rates;
      const state = policyState({ fastLong, fastShort, slowLong, slowShort }, policy);
      return {
        slo,
        state,
        rates: { fast: [fastLong, fastShort], slow: [slowLong, slowShort] },
        transition: transitionOf(slo.state as SloState, state),
      };
    });
  }

  function notificationOf(
    item: Evaluated,
    transition: SloTransition,
    eventId: string,
    at: string,
    endMs: number,
  ) {
    const definition = definitionOf(item.slo);
    const severity = severityOf(transition);
    const condition = definition.alerting[severity];
    const [long, short] = item.rates[severity];
    const notification: SloNotification = {
      subject: "slo",
      kind: transition.notify === "resolved" ? "resolved" : "firing",
      event_id: eventId,
      occurred_at: at,
      project: { id: item.slo.project_id, slug: item.slo.project_slug, name: item.slo.project_name },
      slo: {
        id: item.slo.id,
        name: item.slo.name,
        sli: definition.sli.kind,
        target: item.slo.target,
        window_days: item.slo.window_days,
        scope: describeScope(definition, item.slo.project_name),
      },
      from_state: transition.from,
      to_state: transition.to,
      condition: { severity, ...condition },
      burn_rates: { long, short },
      window_end: toIsoTimestamp(new Date(endMs)),
      links: { slo: `${deps.publicUrl}${sloPagePath(item.slo.project_slug, item.slo.id)}` },
    };
    return notification;
  }

  async function persist(evaluated: readonly Evaluated[], now: Date, endMs: number): Promise<number> {
    const at = toIsoTimestamp(now);
    let queued = 0;
    await db.transaction().execute(async (trx) => {
      const repo = createSlosRepo(trx);
      await repo.saveEvaluations(
        evaluated.map((item) => ({
          id: item.slo.id,
          state: item.state,
          stateSince: item.transition === undefined ? item.slo.state_since : at,
          updatedAt: item.slo.updated_at,
        })),
        at,
      );
      const changed = evaluated.filter((item) => item.transition !== undefined);
      const channels = await repo.channelsFor(
        changed.filter((item) => item.transition?.notify !== "none").map((item) => item.slo.id),
      );
      const outbox = [];
      for (const item of changed) {
        const transition = item.transition as SloTransition;
        const id = newOrderedId(now.getTime());
        const severity = severityOf(transition);
        const condition = definitionOf(item.slo).alerting[severity];
        const [long, short] = item.rates[severity];
        await repo.insertEvent({
          id,
          slo_id: item.slo.id,
          project_id: item.slo.project_id,
          from_state: transition.from,
          to_state: transition.to,
          reason: "evaluation",
          long_burn_rate: long,
          short_burn_rate: short,
          long_window_minutes: condition.long_window_minutes,
          short_window_minutes: condition.short_window_minutes,
          threshold: condition.burn_rate,
          window_end: toIsoTimestamp(new Date(endMs)),
          created_at: at,
        });
        if (transition.notify === "none") continue;
        const payload = JSON.stringify(notificationOf(item, transition, id, at, endMs));
        for (const channel of channels.filter((row) => row.slo_id === item.slo.id)) {
          outbox.push({
            id: newOrderedId(now.getTime()),
            project_id: item.slo.project_id,
            event_id: null,
            slo_event_id: id,
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
          });
        }
      }
      await createNotificationDeliveriesRepo(trx).insertMany(outbox);
      queued = outbox.length;
    });
    for (const item of evaluated) {
      if (item.transition === undefined) continue;
      logger.info(
        {
          slo: item.slo.id,
          project: item.slo.project_slug,
          from: item.transition.from,
          to: item.transition.to,
        },
        "SLO changed state",
      );
    }
    return queued;
  }

  return {
    name: "slo-burn-rates",
    async evaluate(now) {
      const due = (await slos.listEvaluable()).filter(
        (slo) =>
          slo.last_evaluated_at === null ||
          Date.parse(slo.last_evaluated_at) <= now.getTime() - deps.minGapMs,
      );
      const byProject = new Map<string, SloWithAppRow[]>();
      for (const slo of due) byProject.set(slo.project_id, [...(byProject.get(slo.project_id) ?? []), slo]);
      const endMs = now.getTime() - deps.latenessMs;
      const evaluated: Evaluated[] = [];
      for (const group of byProject.values()) {
        try {
          evaluated.push(...(await evaluateProject(group, endMs)));
        } catch (error) {
          // The project's SLOs keep their state and are tried again next pass; others go on.
          logger.error({ err: error, project: group[0]?.project_id }, "SLO evaluation of a project failed");
        }
      }
      const notifications = evaluated.length === 0 ? 0 : await persist(evaluated, now, endMs);
      return { notifications };
    },
  };
}
