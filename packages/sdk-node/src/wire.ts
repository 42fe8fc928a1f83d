// The records as Sightline's ingest routes take them (POST /api/v1/ingest/requests and /logs).
// Written out here rather than imported from @sightline/contracts so the published package
// depends on nothing unpublished; test/wire.test.ts checks them against the contract schemas.

/** One handled HTTP request, as sent to `POST /api/v1/ingest/requests`. */
export interface RequestRecordWire {
  project_slug?: string;
  app_id: string;
  timestamp: string;
  environment: string;
  method: string;
  /** The raw path with its query string, as the server's path filter searches it. */
  path: string;
  route?: string;
  status_code: number;
  response_time_ms: number;
  request_size?: number;
  response_size?: number;
  ip_address?: string;
  user_agent?: string;
  consumer_id?: string;
  consumer_name?: string;
  consumer_group?: string;
  request_payload?: string;
  response_payload?: string;
  request_headers?: Record<string, string>;
  response_headers?: Record<string, string>;
  trace_id?: string;
  span_id?: string;
  /** The app's scheme and host as its clients reach it; this SDK does not send it. */
  base_url?: string;
  /** `http` or `https` as the client reached the app (X-Forwarded-Proto where the app trusts proxies). */
  scheme?: string;
  /** Why a 400 or 422 answer refused the request: field path, rule, message; never the value. */
  validation_errors?: { path: string; rule: string; message: string }[];
}

/** One log line, as sent to `POST /api/v1/ingest/logs`. */
export interface LogRecordWire {
  project_slug?: string;
  app_id: string;
  timestamp: string;
  environment: string;
  level: "DEBUG" | "INFO" | "WARNING" | "ERROR" | "CRITICAL";
  message: string;
  logger_name?: string;
  payload?: string;
  attributes?: Record<string, string | number | boolean>;
  trace_id?: string;
  span_id?: string;
  endpoint_method?: string;
  endpoint_path?: string;
  status_code?: number;
  consumer_id?: string;
  consumer_name?: string;
  consumer_group?: string;
}

/** One heartbeat, as sent to `POST /api/v1/ingest/heartbeat` once a minute. */
export interface HeartbeatWire {
  project_slug?: string;
  app_id: string;
  environment: string;
  /** Random per process start. */
  instance_id: string;
  sdk: string;
  sdk_version: string;
  /** e.g. `node v20.19.0`. */
  runtime: string;
  uptime_s: number;
  /** CPU time of the process since the previous beat, as a percentage of one core. */
  cpu_percent: number;
  memory_rss_bytes: number;
  memory_heap_used_bytes: number;
  /** Seconds until the next beat. */
  interval_s: number;
}

/** The ingest routes' 200 answer. */
export interface IngestAnswerWire {
  accepted: number;
  rejected: number;
  errors: { index: number; pointer: string; message: string }[];
}

/** Limits of the ingest routes the SDK keeps to, so no record is refused for its size. */
export const WIRE_LIMITS = {
  /** INGEST_MAX_BATCH's default: a larger batch is refused whole (413). */
  maxBatch: 1000,
  pathLength: 2048,
  methodLength: 16,
  environmentLength: 64,
  payloadBytes: 65_536,
  messageBytes: 32_768,
  headerCount: 100,
  headerNameLength: 256,
  attributeCount: 64,
  attributeKeyLength: 128,
  idempotencyKeyLength: 255,
  validationErrorCount: 20,
  validationPathLength: 256,
  validationRuleLength: 64,
  validationMessageLength: 256,
} as const;
