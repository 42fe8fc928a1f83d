// Statistics of one operation (method + route template) of an app in one environment, built from
// exact per-status counts and a bounded sample of requests with their payloads: path parameter
// kinds, query parameters, content types, status codes, request and response body statistics.
// Values are read, classified and dropped here; only kinds, counts and safe examples remain.
import {
  DRIFT_PROBABILITY,
  MIN_DRIFT_SAMPLES,
  REQUIRED_SHARE,
  emptyStats,
  expireStats,
  mergeStats,
  mergeWithDrift,
  observeValue,
  type ValueStats,
} from "./schema-stats.js";
import type { SampledCall } from "../../stores/events/queries/contract/contract.js";
import { type TextKind, textKind } from "./value-kinds.js";

export interface QueryParamStats {
  present: number;
  last: number;
  kinds: Partial<Record<TextKind, number>>;
}

export interface ResponseStats {
  count: number;
  last: number;
  contentTypes: Record<string, number>;
  /** When each content type was last seen (epoch ms); absent in state stored before it was kept,
   *  whose types then never expire. */
  contentTypesLast?: Record<string, number>;
  /** JSON bodies sampled for this status. */
  body: ValueStats;
}

export interface OperationStats {
  method: string;
  route: string;
  /** Exact count of calls, and when the last was seen (epoch ms). */
  requests: number;
  last: number;
  /** Sampled calls (the base of the shares below). */
  sampled: number;
  pathParams: Record<string, Partial<Record<TextKind, number>>>;
  query: Record<string, QueryParamStats>;
  /** Sampled calls that carried a request body, and their content types. */
  withBody: number;
  requestTypes: Record<string, number>;
  /** As ResponseStats.contentTypesLast. */
  requestTypesLast?: Record<string, number>;
  requestBody: ValueStats;
  responses: Record<string, ResponseStats>;
}

/** One sampled call as the events query returns it. */
export type { SampledCall };

export function operationKey(method: string, route: string): string {
  return `${method} ${route}`;
}

export function emptyOperation(method: string, route: string): OperationStats {
  return {
    method,
    route,
    requests: 0,
    last: 0,
    sampled: 0,
    pathParams: {},
    query: {},
    withBody: 0,
    requestTypes: {},
    requestBody: emptyStats(),
    responses: {},
  };
}

function responseOf(op: OperationStats, status: number): ResponseStats {
  const key = String(status);
  return (op.responses[key] ??= { count: 0, last: 0, contentTypes: {}, body: emptyStats() });
}

/** Adds the exact count of calls answered `status` (the sample adds no counts). */
export function observeCount(op: OperationStats, status: number, count: number, last: number): void {
  op.requests += count;
  op.last = Math.max(op.last, last);
  const response = responseOf(op, status);
  response.count += count;
  response.last = Math.max(response.last, last);
}

/** `application/json; charset=utf-8` -> `application/json`; "" when none. */
export function mediaType(header: string): string {
  const type = header.split(";")[0]?.trim().toLowerCase() ?? "";
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : "";
}

function isJsonType(type: string): boolean {
  return type === "" || type === "application/json" || type.endsWith("+json");
}

/** A payload's JSON value, or undefined when it is empty, not JSON, or cut short by a limit. */
function parsePayload(payload: string, type: string): unknown {
  if (payload === "" || !isJsonType(type)) return undefined;
  const first = payload.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return undefined;
  }
}

/** Adds one sampled call: its parameters' kinds and its bodies' shapes. */
export function observeCall(op: OperationStats, call: SampledCall): void {
  op.sampled += 1;
  observePathParams(op, call.route, call.path);
  if (call.query !== "") {
    const seen = new Set<string>();
    for (const [name, value] of new URLSearchParams(call.query)) {
      if (name === "" || name.length > 100 || seen.has(name)) continue;
      seen.add(name);
      const param = (op.query[name] ??= { present: 0, last: 0, kinds: {} });
      param.present += 1;
      param.last = Math.max(param.last, call.at);
      const kind = textKind(value);
      param.kinds[kind] = (param.kinds[kind] ?? 0) + 1;
    }
  }
  const requestType = mediaType(call.requestType);
  if (call.requestPayload !== "") {
    op.withBody += 1;
    if (requestType !== "") {
      op.requestTypes[requestType] = (op.requestTypes[requestType] ?? 0) + 1;
      seenAt((op.requestTypesLast ??= {}), requestType, call.at);
    }
    const body = parsePayload(call.requestPayload, requestType);
    if (body !== undefined) observeValue(op.requestBody, body, "", call.at);
  }
  const response = responseOf(op, call.status);
  const responseType = mediaType(call.responseType);
  if (responseType !== "") {
    response.contentTypes[responseType] = (response.contentTypes[responseType] ?? 0) + 1;
    seenAt((response.contentTypesLast ??= {}), responseType, call.at);
  }
  const body = parsePayload(call.responsePayload, responseType);
  if (body !== undefined) observeValue(response.body, body, "", call.at);
}

function seenAt(last: Record<string, number>, key: string, at: number): void {
  last[key] = Math.max(last[key] ?? 0, at);
}

/** Latest of both last-seen maps (a type either lacks keeps the other's). */
function latest(
  into: Record<string, number> | undefined,
  from: Record<string, number> | undefined,
): Record<string, number> | undefined {
  if (from === undefined) return into;
  const out = { ...into };
  for (const [key, at] of Object.entries(from)) seenAt(out, key, at);
  return out;
}

/** Drops the types last seen before `cutoff` (types without a last-seen time stay). */
function expireTypes(
  counts: Record<string, number>,
  last: Record<string, number> | undefined,
  cutoff: number,
): void {
  for (const [type, at] of Object.entries(last ?? {})) {
    if (at >= cutoff) continue;
    delete counts[type];
    delete (last as Record<string, number>)[type];
  }
}

function observePathParams(op: OperationStats, route: string, path: string): void {
  if (!route.includes("{")) return;
  const names = route.split("/").filter((part) => part !== "");
  const values = path.split("/").filter((part) => part !== "");
  // Aligned from the end: a mount prefix the template lacks must not shift the segments.
  const offset = values.length - names.length;
  if (offset < 0) return;
  names.forEach((segment, index) => {
    const match = /^\{([^}]+)\}$/.exec(segment);
    if (!match) return;
    const name = match[1] as string;
    let value = values[index + offset] as string;
    try {
      value = decodeURIComponent(value);
    } catch {
      // kept as sent
    }
    const kinds = (op.pathParams[name] ??= {});
    const kind = textKind(value);
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  });
}

function addCounts<K extends string>(
  into: Partial<Record<K, number>>,
  from: Partial<Record<K, number>>,
): void {
  for (const [key, count] of Object.entries(from) as Array<[K, number]>) into[key] = (into[key] ?? 0) + count;
}

/**
 * `into` += `from`. With `drift`, bodies follow the drift rules of schema-stats (a changed field
 * replaces what was known of it); without, counts only add up.
 */
export function mergeOperation(into: OperationStats, from: OperationStats, drift: boolean): void {
  if (drift) applyCallDrift(into, from);
  into.requests += from.requests;
  into.last = Math.max(into.last, from.last);
  into.sampled += from.sampled;
  for (const [name, kinds] of Object.entries(from.pathParams)) {
    // A path parameter whose fresh values are all of kinds never seen before changed type.
    const mine = into.pathParams[name];
    if (mine === undefined || (drift && disjoint(mine, kinds))) into.pathParams[name] = { ...kinds };
    else addCounts(mine, kinds);
  }
  for (const [name, param] of Object.entries(from.query)) {
    const mine = into.query[name];
    if (mine === undefined) into.query[name] = structuredClone(param);
    else {
      mine.present += param.present;
      mine.last = Math.max(mine.last, param.last);
      addCounts(mine.kinds, param.kinds);
    }
  }
  into.withBody += from.withBody;
  addCounts(into.requestTypes, from.requestTypes);
  const requestLast = latest(into.requestTypesLast, from.requestTypesLast);
  if (requestLast !== undefined) into.requestTypesLast = requestLast;
  into.requestBody = merged(into.requestBody, from.requestBody, drift);
  for (const [status, response] of Object.entries(from.responses)) {
    const mine = into.responses[status];
    if (mine === undefined) {
      into.responses[status] = structuredClone(response);
      continue;
    }
    mine.count += response.count;
    mine.last = Math.max(mine.last, response.last);
    addCounts(mine.contentTypes, response.contentTypes);
    const last = latest(mine.contentTypesLast, response.contentTypesLast);
    if (last !== undefined) mine.contentTypesLast = last;
    mine.body = merged(mine.body, response.body, drift);
  }
}

/**
 * The drift rule of body fields (schema-stats applyPresenceDrift) for what is counted per call —
 * query parameters and the request body — before `from`'s counts join: a parameter sent on every
 * fresh call where the old share makes that less likely than DRIFT_PROBABILITY is counted as sent
 * on every earlier call too (now required; a new one appears as required), and one the fresh calls
 * all lack where that is as unlikely is forgotten (no longer sent). Shares of all sampled calls
 * would otherwise keep a parameter sent half the time for a day optional for days after it became
 * constant.
 */
function applyCallDrift(into: OperationStats, from: OperationStats): void {
  const fresh = from.sampled;
  if (fresh < MIN_DRIFT_SAMPLES || into.sampled === 0) return;
  const unlikely = (share: number) => Math.pow(share, fresh) < DRIFT_PROBABILITY;
  for (const [name, param] of Object.entries(into.query)) {
    const share = Math.min(param.present / into.sampled, 1);
    const now = from.query[name];
    if (now === undefined) {
      if (unlikely(1 - share)) delete into.query[name];
    } else if (now.present === fresh && share < REQUIRED_SHARE && unlikely(share)) {
      param.present = into.sampled;
    }
  }
  for (const [name, param] of Object.entries(from.query)) {
    // Never seen in the earlier calls and on every fresh one: required from its first version.
    if (!(name in into.query) && param.present === fresh)
      into.query[name] = { ...structuredClone(param), present: into.sampled };
  }
  const bodyShare = Math.min(into.withBody / into.sampled, 1);
  if (from.withBody === fresh && bodyShare < REQUIRED_SHARE && unlikely(bodyShare)) {
    into.withBody = into.sampled;
  }
}

function merged(into: ValueStats, from: ValueStats, drift: boolean): ValueStats {
  if (drift) return mergeWithDrift(into, from);
  mergeStats(into, from);
  return into;
}

function disjoint(before: Partial<Record<string, number>>, after: Partial<Record<string, number>>): boolean {
  const total = Object.values(after).reduce<number>((sum, count) => sum + (count ?? 0), 0);
  return total >= 20 && Object.keys(after).every((kind) => (before[kind] ?? 0) === 0);
}

/** Forgets what was last seen before `cutoff`: query parameters, statuses, content types, fields,
 *  enum values. Returns false when the operation itself was not called since. */
export function expireOperation(op: OperationStats, cutoff: number): boolean {
  if (op.last < cutoff) return false;
  for (const [name, param] of Object.entries(op.query)) if (param.last < cutoff) delete op.query[name];
  for (const [status, response] of Object.entries(op.responses)) {
    if (response.last < cutoff) delete op.responses[status];
    else {
      expireStats(response.body, cutoff);
      expireTypes(response.contentTypes, response.contentTypesLast, cutoff);
    }
  }
  expireStats(op.requestBody, cutoff);
  expireTypes(op.requestTypes, op.requestTypesLast, cutoff);
  return true;
}
