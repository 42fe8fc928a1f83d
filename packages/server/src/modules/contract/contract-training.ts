// Feeding a stream of calls through the state in passes, as the background job does: a pass
// per `passMs` of traffic, each with the exact counts and a sample of at most `samplePerOperation`
// calls per operation. Shared by the inference job's tests and bench:contract.
import { advanceState, type CallCount, type ContractState } from "./contract-state.js";
import { operationKey, type SampledCall } from "./operation-stats.js";

export interface TrainingOptions {
  readonly passMs: number;
  readonly samplePerOperation: number;
  readonly unusedAfterMs: number;
}

/** Advances `state` over `calls` (in time order), one pass per `passMs` window. */
export function trainState(
  state: ContractState,
  calls: readonly SampledCall[],
  options: TrainingOptions,
): ContractState {
  let index = 0;
  while (index < calls.length) {
    const windowStart = (calls[index] as SampledCall).at;
    const windowEnd = windowStart - (windowStart % options.passMs) + options.passMs;
    const counts = new Map<string, CallCount & { count: number; last: number }>();
    const sampled = new Map<string, number>();
    const sample: SampledCall[] = [];
    while (index < calls.length && (calls[index] as SampledCall).at < windowEnd) {
      const call = calls[index] as SampledCall;
      index += 1;
      const key = `${call.method} ${call.route} ${call.status}`;
      const entry = counts.get(key) ?? {
        method: call.method,
        route: call.route,
        status: call.status,
        count: 0,
        last: 0,
      };
      entry.count += 1;
      entry.last = Math.max(entry.last, call.at);
      counts.set(key, entry);
      const op = operationKey(call.method, call.route);
      const taken = sampled.get(op) ?? 0;
      if (taken < options.samplePerOperation) {
        sampled.set(op, taken + 1);
        sample.push(call);
      }
    }
    advanceState(state, {
      counts: [...counts.values()],
      calls: sample,
      now: windowEnd,
      expireBefore: windowEnd - options.unusedAfterMs,
    });
  }
  return state;
}
