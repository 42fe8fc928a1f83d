// The request and log records of the query benchmarks, generated inside the engine (INSERT …
// SELECT FROM numbers()): shared by bench:query, bench:alerts and bench:dashboard so all measure
// the same data. Parameters:
// {end:Int64} epoch ms of the newest row, {edges:Array(UInt8)} cumulative percent shares of the
// apps, {projects:Array(String)} and {appIds:Array(String)} the project and app of each share.

const DAY = 86_400_000;

/** One entry per app: its project and its share of the rows in percent (shares sum to 100). */
export interface DatasetApp {
  readonly projectId: string;
  readonly appId: string;
  readonly share: number;
}

/** The bound parameters of requestsSql for apps and an end time. */
export function datasetParams(apps: readonly DatasetApp[], endMs: number): Record<string, unknown> {
  let edge = 0;
  return {
    end: endMs,
    edges: apps.map((entry) => (edge += entry.share)),
    projects: apps.map((entry) => entry.projectId),
    appIds: apps.map((entry) => entry.appId),
  };
}

/** api_requests rows generated in the engine: evenly spread over 30 days up to `endMs`. UUIDv7
 *  ids carry each row's timestamp, as ingest's do, so the detail route finds them by key. */
export function requestsSql(database: string, rows: number): string {
  return `INSERT INTO ${database}.api_requests (id, project_id, app_id, timestamp, environment, method, path,
      route, status_code, response_time_ms, request_size, response_size, ip_address, user_agent, consumer_id,
      consumer_name, consumer_group, request_payload, response_payload, trace_id, span_id)
    WITH
      toInt64({end:Int64} - 30 * ${DAY} + intDiv(number * 30 * ${DAY}, ${rows})) AS ms,
      leftPad(lower(hex(ms)), 12, '0') AS t,
      leftPad(lower(hex(cityHash64(number, 11))), 16, '0') AS r,
      cityHash64(number, 1) % 100 AS slot,
      arrayFirstIndex(edge -> slot < edge, {edges:Array(UInt8)}) AS app,
      toUInt32(pow((cityHash64(number, 2) % 10000) / 10000.0, 2) * 200) AS k,
      cityHash64(number, 3) % 5000 AS c,
      cityHash64(number, 4) % 1000 AS s,
      cityHash64(number, 5) % 100 AS p
    SELECT
      toUUID(concat(substring(t, 1, 8), '-', substring(t, 9, 4), '-7', substring(r, 1, 3), '-',
        substring('89ab', toUInt8(cityHash64(number, 12) % 4) + 1, 1), substring(r, 4, 3), '-', substring(r, 7, 10),
        leftPad(lower(hex(cityHash64(number, 13) % 256)), 2, '0'))),
      {projects:Array(String)}[app], {appIds:Array(String)}[app],
      fromUnixTimestamp64Milli(ms, 'UTC'),
      if(cityHash64(number, 6) % 10 < 8, 'production', 'staging'),
      ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH'][k % 7 + 1],
      if(k % 3 = 0, concat('/api/v1/res', toString(k)),
        concat('/api/v1/res', toString(k), '/', toString(cityHash64(number, 7) % 100000))),
      if(k % 3 = 0, concat('/api/v1/res', toString(k)), concat('/api/v1/res', toString(k), '/{id}')),
      multiIf(s < 780, 200, s < 830, 201, s < 850, 204, s < 870, 304, s < 900, 400, s < 920, 404, s < 935, 422,
        s < 990, 500, 503),
      round(-log(1 - (cityHash64(number, 8) % 1000000) / 1000000.0) * 120 + (k % 10), 2),
      cityHash64(number, 9) % 4096,
      cityHash64(number, 10) % 65536,
      concat('10.', toString(c % 256), '.', toString(intDiv(c, 256)), '.7'),
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      if(c < 4500, concat('consumer-', toString(c)), ''),
      if(c < 3000, concat('Consumer ', toString(c)), ''),
      concat('group-', toString(c % 10)),
      if(p < 13, concat('{"sku":"A-', toString(c), '","quantity":2}'), ''),
      if(p < 13, '{"ok":true}', ''),
      '', ''
    FROM numbers(${rows})`;
}

/** api_logs rows generated in the engine, spread like requestsSql's (same parameters). */
export function logsSql(database: string, rows: number): string {
  return `INSERT INTO ${database}.api_logs (id, project_id, app_id, timestamp, environment, level, message,
      logger_name, payload, attributes, trace_id, span_id, endpoint_method, endpoint_path, endpoint_route,
      status_code, consumer_id)
    WITH
      toInt64({end:Int64} - 30 * ${DAY} + intDiv(number * 30 * ${DAY}, ${rows})) AS ms,
      leftPad(lower(hex(ms)), 12, '0') AS t,
      leftPad(lower(hex(cityHash64(number, 21))), 16, '0') AS r,
      cityHash64(number, 1) % 100 AS slot,
      arrayFirstIndex(edge -> slot < edge, {edges:Array(UInt8)}) AS app,
      cityHash64(number, 22) % 100 AS l
    SELECT
      toUUID(concat(substring(t, 1, 8), '-', substring(t, 9, 4), '-7', substring(r, 1, 3), '-8', substring(r, 4, 3),
        '-', substring(r, 7, 10), 'ab')),
      {projects:Array(String)}[app], {appIds:Array(String)}[app],
      fromUnixTimestamp64Milli(ms, 'UTC'),
      if(cityHash64(number, 6) % 10 < 8, 'production', 'staging'),
      multiIf(l < 20, 'DEBUG', l < 80, 'INFO', l < 92, 'WARNING', l < 99, 'ERROR', 'CRITICAL'),
      concat(['order placed', 'payment provider timed out', 'cache miss', 'user signed in', 'retrying request'][
        l % 5 + 1], ' #', toString(number % 100000)),
      ['app.orders', 'app.payments', 'app.cache', 'app.auth'][l % 4 + 1],
      '',
      map('order_id', concat('o-', toString(number % 50000)), 'attempt', toString(l % 4)),
      '', '', '', '', '', 0, ''
    FROM numbers(${rows})`;
}
