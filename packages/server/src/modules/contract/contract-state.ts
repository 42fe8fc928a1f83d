// The learning state of one app in one environment between passes: the operations the contract
// is derived from, and the recent observations not yet folded into them. Recent observations of
// an operation fold in once they change its contract (judged from MIN_DRIFT_SAMPLES calls on),
// once there are FOLD_CALLS of them, or once they are RECENT_MAX_AGE_MS old: a handful of calls
// cannot make a version, and a change backed by enough calls makes one at the next pass.
import {
  emptyOperation,
  expireOperation,
  mergeOperation,
  observeCall,
  observeCount,
  type OperationStats,
  operationKey,
  type SampledCall,
} from "./operation-stats.js";
import { MIN_DRIFT_SAMPLES } from "./schema-stats.js";
import type { CallCount } from "../../stores/events/queries/contract/contract.js";
import { buildDocument, canonicalJson } from "./contract-document.js";

/** The contract an operation's statistics describe, as comparable text. */
function operationShape(op: OperationStats): string {
  return canonicalJson(buildDocument([op], { app: "", environment: "" }, { examples: false }).paths);
}

export interface ContractState {
  readonly format: 1;
  operations: Record<string, OperationStats>;
  recent: Record<string, OperationStats>;
  /** When each recent entry began (epoch ms). */
  recentSince: Record<string, number>;
}

/** Recent observations of an operation fold in after this long, however few they are… */
export const RECENT_MAX_AGE_MS = 10 * 60_000;
/** …or once this many calls were seen (the evidence a presence drift of a common field needs). */
export const FOLD_CALLS = 100;

export function emptyState(): ContractState {
  return { format: 1, operations: {}, recent: {}, recentSince: {} };
}

export type { CallCount };

export interface PassInput {
  /** Exact calls per operation and status in the pass's window. */
  readonly counts: readonly CallCount[];
  /** A bounded sample of those calls with their payloads. */
  readonly calls: readonly SampledCall[];
  readonly now: number;
  /** Things last seen before this (epoch ms) leave the contract. */
  readonly expireBefore: number;
}

/** Adds one pass's observations to `state`, folds what is ready, and expires what is stale. */
export function advanceState(state: ContractState, input: PassInput): ContractState {
  const recentOf = (method: string, route: string): OperationStats => {
    const key = operationKey(method, route);
    state.recentSince[key] ??= input.now;
    return (state.recent[key] ??= emptyOperation(method, route));
  };
  for (const count of input.counts)
    observeCount(recentOf(count.method, count.route), count.status, count.count, count.last);
  for (const call of input.calls) observeCall(recentOf(call.method, call.route), call);
  for (const [key, recent] of Object.entries(state.recent)) {
    const known = state.operations[key];
    const since = state.recentSince[key] ?? input.now;
    if (known === undefined) {
      state.operations[key] = recent;
    } else if (recent.requests >= FOLD_CALLS || input.now - since >= RECENT_MAX_AGE_MS) {
      mergeOperation(known, recent, true);
    } else if (recent.requests >= MIN_DRIFT_SAMPLES) {
      const folded = structuredClone(known);
      mergeOperation(folded, recent, true);
      if (operationShape(folded) === operationShape(known)) continue;
      state.operations[key] = folded;
    } else continue;
    delete state.recent[key];
    delete state.recentSince[key];
  }
  for (const [key, op] of Object.entries(state.operations)) {
    if (!expireOperation(op, input.expireBefore) && state.recent[key] === undefined)
      delete state.operations[key];
  }
  return state;
}

export function operationsOf(state: ContractState): OperationStats[] {
  return Object.values(state.operations);
}
