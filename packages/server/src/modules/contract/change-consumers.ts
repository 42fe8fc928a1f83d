// The consumers a change affects, counted exactly over a look-back window: which calls a change
// touches (the operation's; for a status, those answered with it; for a body field, those whose
// body carried it — or, against a declaration, lacked a field it promises) and their callers.
import { CONTRACT_LIMITS } from "@sightline/contracts";
import type { EventsExecutor } from "../../stores/events/index.js";
import { affectedConsumers, type ConsumerScope } from "../../stores/events/queries/contract/contract.js";
import { type ContractChange, fieldSegments } from "./contract-diff.js";

export interface ChangeConsumers {
  readonly consumers: Array<{ consumer_id: string; consumer_name: string; requests: number }>;
  readonly total: number;
}

/** Kinds that, against a declaration, name a field the traffic leaves out: the consumers hit are
 *  those whose calls lacked it. */
const ABSENT_AGAINST_DECLARED = new Set<ContractChange["kind"]>([
  "response_field_removed",
  "response_field_optional",
  "request_field_removed",
]);

/** Which calls a change affects. */
export function consumerScopeOf(
  app: { readonly id: string; readonly project_id: string },
  environment: string,
  change: ContractChange,
  window: { readonly sinceMs: number; readonly untilMs: number; readonly declared?: boolean },
): ConsumerScope {
  const segments = change.field === null ? [] : fieldSegments(change.field);
  const bodyField =
    (change.location === "request" || change.location === "response") &&
    change.field !== null &&
    segments.length > 0;
  return {
    projectId: app.project_id,
    appId: app.id,
    environment,
    method: change.method,
    route: change.path,
    status: change.status === null ? null : Number(change.status),
    field: bodyField
      ? {
          side: change.location === "request" ? "request" : "response",
          segments,
          absent: window.declared === true && ABSENT_AGAINST_DECLARED.has(change.kind),
        }
      : null,
    sinceMs: window.sinceMs,
    untilMs: window.untilMs,
  };
}

/** The consumers of `scope`, at most CONTRACT_LIMITS.consumersPerChange listed, in wire shape. */
export async function consumersOf(events: EventsExecutor, scope: ConsumerScope): Promise<ChangeConsumers> {
  const { consumers, total } = await affectedConsumers(events, scope, CONTRACT_LIMITS.consumersPerChange);
  return {
    consumers: consumers.map((consumer) => ({
      consumer_id: consumer.consumerId,
      consumer_name: consumer.consumerName,
      requests: consumer.requests,
    })),
    total,
  };
}
