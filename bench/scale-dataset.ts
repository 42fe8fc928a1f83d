// The request records of bench:scale, generated inside the engine in many INSERT … SELECT
// statements (one or more per day, so the table holds many parts as a production table does):
// Zipf-like endpoints, a long tail of consumers, a 4xx/5xx status mix, log-normal latency and
// payload sizes, one big tenant plus small ones. Parameters bound per statement:
// {edges:Array(UInt8)} cumulative percent shares of the apps, {projects:Array(String)} and
// {appIds:Array(String)} the project and app of each share.

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Distinct route templates per app; endpoint k is chosen with probability ∝ 1/(k+1). */
export const SCALE_ENDPOINTS = 300;
/** Distinct consumers; consumer c is chosen with probability ∝ 1/(c+1) (a long tail). */
export const SCALE_CONSUMERS = 50_000;
/** The most requested endpoint (k = 0): the endpoint-detail line measures it. */
export const TOP_ENDPOINT = { method: "GET", route: "/api/v1/r0" } as const;
/** The busiest consumer (c = 0): the one-consumer page's lines measure it. */
export const TOP_CONSUMER = "consumer-0";

export interface ScaleApp {
  readonly projectId: string;
  readonly appId: string;
  /** Percent of all rows (the shares sum to 100). */
  readonly share: number;
}

/** One big tenant (80 % of the rows, in two apps) plus ten small projects of 2 % each. */
export const SCALE_APPS: readonly ScaleApp[] = [
  { projectId: "proj_scale_big", appId: "app_scale_big_api", share: 72 },
  { projectId: "proj_scale_big", appId: "app_scale_big_web", share: 8 },
  ...Array.from({ length: 10 }, (_, n) => ({
    projectId: `proj_scale_small_${n}`,
    appId: `app_scale_small_${n}`,
    share: 2,
  })),
];

export function scaleParams(apps: readonly ScaleApp[]): Record<string, unknown> {
  let edge = 0;
  return {
    edges: apps.map((entry) => (edge += entry.share)),
    projects: apps.map((entry) => entry.projectId),
    appIds: apps.map((entry) => entry.appId),
  };
}

/** One INSERT … SELECT: `count` rows numbered from `first`, evenly spread over [fromMs, fromMs + spanMs). */
export interface ScaleChunk {
  readonly first: number;
  readonly count: number;
  readonly fromMs: number;
  readonly spanMs: number;
}

/**
 * The statements' chunks, oldest first: `recentRows` over the 30 days before `endMs`, and the 60
 * days before those at `olderDensity` times the recent rows per day (the 90 d window's thinner
 * past). At most `chunkRows` rows per statement, at least one statement per day. The oldest
 * hour is left out so the 90-day TTL does not start deleting rows while the bench runs.
 */
export function scaleChunks(
  recentRows: number,
  olderDensity: number,
  endMs: number,
  chunkRows: number,
): ScaleChunk[] {
  const chunks: ScaleChunk[] = [];
  let first = 0;
  for (let daysAgo = 90; daysAgo >= 1; daysAgo -= 1) {
    const dayFrom = Math.max(endMs - daysAgo * DAY, endMs - 90 * DAY + HOUR);
    const dayTo = endMs - (daysAgo - 1) * DAY;
    const perDay = daysAgo <= 30 ? recentRows / 30 : (recentRows / 30) * olderDensity;
    const dayRows = Math.round((perDay * (dayTo - dayFrom)) / DAY);
    const pieces = Math.max(1, Math.ceil(dayRows / chunkRows));
    for (let piece = 0; piece < pieces; piece += 1) {
      const count = Math.round((dayRows * (piece + 1)) / pieces) - Math.round((dayRows * piece) / pieces);
      const fromMs = dayFrom + Math.floor(((dayTo - dayFrom) * piece) / pieces);
      const toMs = dayFrom + Math.floor(((dayTo - dayFrom) * (piece + 1)) / pieces);
      if (count > 0) chunks.push({ first, count, fromMs, spanMs: toMs - fromMs });
      first += count;
    }
  }
  return chunks;
}

/** Uniform in (0, 1) from the row number and a seed. */
const uniform = (seed: number) => `((cityHash64(number, ${seed}) % 1000000) + 0.5) / 1000000.0`;

/** The INSERT … SELECT of one chunk (integers are inlined: they come from scaleChunks). */
export function scaleRequestsSql(database: string, chunk: ScaleChunk): string {
  const { first, count, fromMs, spanMs } = chunk;
  for (const value of [first, count, fromMs, spanMs]) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`bad chunk value ${value}`);
  }
  return `INSERT INTO ${database}.api_requests (id, project_id, app_id, timestamp, environment, method, path,
      route, status_code, response_time_ms, request_size, response_size, ip_address, user_agent, consumer_id,
      consumer_name, consumer_group, request_payload, response_payload, trace_id, span_id)
    WITH
      toInt64(${fromMs} + intDiv((number - ${first}) * ${spanMs}, ${count})) AS ms,
      leftPad(lower(hex(ms)), 12, '0') AS t,
      leftPad(lower(hex(cityHash64(number, 11))), 16, '0') AS r,
      cityHash64(number, 1) % 100 AS slot,
      arrayFirstIndex(edge -> slot < edge, {edges:Array(UInt8)}) AS app,
      toUInt32(floor(exp(${uniform(2)} * log(${SCALE_ENDPOINTS + 1})))) - 1 AS k,
      toUInt32(floor(exp(${uniform(3)} * log(${SCALE_CONSUMERS + 1})))) - 1 AS c,
      cityHash64(number, 6) % 100 < 12 AS anonymous,
      cityHash64(number, 4) % 1000 AS s,
      multiIf(k % 23 = 5 AND s < 150, 500, s < 790, 200, s < 840, 201, s < 855, 204, s < 870, 304, s < 900, 400,
        s < 915, 401, s < 940, 404, s < 952, 422, s < 960, 429, s < 985, 500, s < 993, 502, 503) AS status,
      sqrt(-2 * log(${uniform(8)})) AS radius,
      2 * pi() * ${uniform(9)} AS angle,
      sqrt(-2 * log(${uniform(14)})) * cos(2 * pi() * ${uniform(15)}) AS z3,
      cityHash64(number, 5) % 100 AS p
    SELECT
      toUUID(concat(substring(t, 1, 8), '-', substring(t, 9, 4), '-7', substring(r, 1, 3), '-',
        substring('89ab', toUInt8(cityHash64(number, 12) % 4) + 1, 1), substring(r, 4, 3), '-', substring(r, 7, 10),
        leftPad(lower(hex(cityHash64(number, 13) % 256)), 2, '0'))),
      {projects:Array(String)}[app], {appIds:Array(String)}[app],
      fromUnixTimestamp64Milli(ms, 'UTC'),
      if(cityHash64(number, 7) % 100 < 85, 'production', 'staging'),
      ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH'][k % 7 + 1],
      if(k % 3 = 0, concat('/api/v1/r', toString(k)),
        concat('/api/v1/r', toString(k), '/', toString(cityHash64(number, 10) % 100000))),
      if(k % 3 = 0, concat('/api/v1/r', toString(k)), concat('/api/v1/r', toString(k), '/{id}')),
      status,
      round(exp(log(25 + (k % 11) * 15) + 0.8 * radius * cos(angle)) * if(status >= 500, 3, 1), 2),
      if(k % 7 < 3, 0, toUInt64(exp(6 + radius * sin(angle)))),
      toUInt64(exp(7.5 + 1.2 * z3)),
      concat('10.', toString(c % 256), '.', toString(intDiv(c, 256) % 256), '.', toString(k % 200)),
      ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
        'okhttp/4.12.0', 'python-requests/2.32.3', 'Go-http-client/2.0', 'curl/8.5.0'][c % 5 + 1],
      if(anonymous, '', concat('consumer-', toString(c))),
      if(anonymous OR c >= 30000, '', concat('Consumer ', toString(c))),
      if(anonymous, '', concat('group-', toString(c % 25))),
      if(p < 10, concat('{"sku":"A-', toString(c), '","quantity":', toString(p), ',"note":"',
        repeat('x', toUInt32(cityHash64(number, 16) % 200)), '"}'), ''),
      if(p < 10, concat('{"ok":', if(status < 400, 'true', 'false'), ',"id":', toString(number), '}'), ''),
      '', ''
    FROM numbers(${first}, ${count})`;
}
