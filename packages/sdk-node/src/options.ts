// The SDK's settings: what users pass, their defaults (environment variables first, then
// built-in values), and the one resolved, frozen form the rest of the SDK reads.
import type { ConsumerInput } from "./capture/exchange.js";
import type { TrustProxy } from "./capture/client-ip.js";
import { DEFAULT_BODY_KEYS } from "./capture/redact.js";
import { consoleLogger, type SightlineLogger } from "./transport/diagnostics.js";
import { WIRE_LIMITS } from "./wire.js";

/** Options of {@link createSightline}. Everything but `apiKey` and `app` has a default. */
export interface SightlineOptions {
  /** API key (project or app key). Default: `SIGHTLINE_API_KEY`. Without one the SDK is off (one warning). */
  apiKey?: string;
  /** The app's slug or UUID in Sightline. Default: `SIGHTLINE_APP`. Without one the SDK is off (one warning). */
  app?: string;
  /** Sightline's address. Default: `SIGHTLINE_URL`, else `http://localhost:8080`. */
  url?: string;
  /** Environment of every record. Default: `SIGHTLINE_ENVIRONMENT`, else `NODE_ENV`, else `production`. */
  environment?: string;
  /** The project's slug, checked by the server against the key. Default: not sent. */
  projectSlug?: string;
  /** Set false to turn the SDK off (adapters pass requests straight through). Default: true. */
  enabled?: boolean;
  /** Records per batch (at most 1000, the server's default limit). Default: 500. */
  batchSize?: number;
  /** Longest a record waits before its batch is sent, ms. Default: 2000. */
  flushIntervalMs?: number;
  /** Records kept per kind while Sightline is unreachable; the oldest are dropped beyond it. Default: 10000. */
  maxQueueSize?: number;
  /** Retries of a batch after network errors, 408, 429, 502, 503, 504. Default: 5. */
  maxRetries?: number;
  /** First retry delay, ms; doubles per attempt, with jitter, never below Retry-After. Default: 500. */
  retryBaseMs?: number;
  /** Longest retry delay, ms. Default: 30000. */
  retryMaxMs?: number;
  /** Deadline of one POST to Sightline, ms. Default: 10000. */
  timeoutMs?: number;
  /** gzip batches. Default: true. */
  gzip?: boolean;
  /** Client address from X-Forwarded-For: `true` (first entry) or the number of trusted proxies. Default: false (socket address). */
  trustProxy?: TrustProxy;
  /** Send request and response headers (credentials always replaced by `[REDACTED]`). Default: false. */
  captureHeaders?: boolean;
  /** Extra header names or patterns to redact, on top of authorization, cookie, set-cookie, x-api-key, proxy-authorization. Default: none. */
  redactHeaders?: (string | RegExp)[];
  /** Send JSON and text request/response bodies, masked and cut to `maxBodyBytes`. Default: false. */
  captureBodies?: boolean;
  /** Bytes kept of each captured body. Default: 8192 (at most 65536). */
  maxBodyBytes?: number;
  /** Body and query keys whose values are masked. Default: `/password|secret|token|api[_-]?key|authorization|card/i`. */
  redactBodyKeys?: RegExp;
  /** Names the consumer from the framework's request object when the app did not call `setConsumer`. Default: none. */
  identifyConsumer?: (request: unknown) => ConsumerInput;
  /** Skip requests whose path (no query) matches. Default: none. */
  ignorePaths?: (string | RegExp)[];
  /** Also send `console.*` lines as logs, linked to the request they ran for. Default: false. */
  captureConsole?: boolean;
  /** Send an error log (message, stack) for exceptions an adapter sees escape a handler. Default: true. */
  captureErrors?: boolean;
  /** Send a heartbeat (SDK version, runtime, process CPU and memory) at start and then every `heartbeatIntervalMs`, so Sightline knows the app is alive. Default: true. */
  heartbeat?: boolean;
  /** Time between heartbeats, ms. Default: 60000 (at least 1000). */
  heartbeatIntervalMs?: number;
  /** On SIGTERM, flush (within `closeTimeoutMs`) before the process exits. Default: false. */
  flushOnSigterm?: boolean;
  /** Deadline of `close()` when none is given, ms. Default: 5000. */
  closeTimeoutMs?: number;
  /** Log each batch sent and its outcome. Default: false. */
  debug?: boolean;
  /** Where warnings and debug lines go. Default: `console`. */
  logger?: SightlineLogger;
}

export interface ResolvedOptions {
  readonly apiKey: string;
  readonly app: string;
  readonly url: URL;
  readonly environment: string;
  readonly projectSlug: string | undefined;
  readonly enabled: boolean;
  /** Why the SDK is off, when it is. */
  readonly disabledReason: string | undefined;
  readonly batchSize: number;
  readonly flushIntervalMs: number;
  readonly maxQueueSize: number;
  readonly maxRetries: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly timeoutMs: number;
  readonly gzip: boolean;
  readonly trustProxy: TrustProxy;
  readonly captureHeaders: boolean;
  readonly redactHeaders: readonly (string | RegExp)[];
  readonly captureBodies: boolean;
  readonly maxBodyBytes: number;
  readonly redactBodyKeys: RegExp;
  readonly identifyConsumer: ((request: unknown) => ConsumerInput) | undefined;
  readonly ignorePaths: readonly (string | RegExp)[];
  readonly captureConsole: boolean;
  readonly captureErrors: boolean;
  readonly heartbeat: boolean;
  readonly heartbeatIntervalMs: number;
  readonly flushOnSigterm: boolean;
  readonly closeTimeoutMs: number;
  readonly debug: boolean;
  readonly logger: SightlineLogger;
}

function env(name: string): string | undefined {
  const value = typeof process === "undefined" ? undefined : process.env[name];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function whole(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

function stateless(pattern: RegExp): RegExp {
  return pattern.global || pattern.sticky
    ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""))
    : pattern;
}

export function resolveOptions(options: SightlineOptions = {}): ResolvedOptions {
  const apiKey = (options.apiKey ?? env("SIGHTLINE_API_KEY") ?? "").trim();
  const app = (options.app ?? env("SIGHTLINE_APP") ?? "").trim();
  const rawUrl = options.url ?? env("SIGHTLINE_URL") ?? "http://localhost:8080";
  let url: URL | undefined;
  try {
    url = new URL(rawUrl.endsWith("/") ? rawUrl : `${rawUrl}/`);
  } catch {
    url = undefined;
  }
  const environment = (options.environment ?? env("SIGHTLINE_ENVIRONMENT") ?? env("NODE_ENV") ?? "production")
    .trim()
    .toLowerCase()
    .slice(0, WIRE_LIMITS.environmentLength);

  let disabledReason: string | undefined;
  if (options.enabled === false) disabledReason = "disabled by the `enabled: false` option";
  else if (apiKey === "")
    disabledReason = "no API key (set the `apiKey` option or SIGHTLINE_API_KEY); nothing is sent";
  else if (app === "") disabledReason = "no app (set the `app` option or SIGHTLINE_APP); nothing is sent";
  else if (url === undefined)
    disabledReason = `the url ${JSON.stringify(rawUrl)} is not a valid URL; nothing is sent`;

  return Object.freeze({
    apiKey,
    app,
    url: url ?? new URL("http://localhost:8080/"),
    environment: environment === "" ? "production" : environment,
    projectSlug: options.projectSlug,
    enabled: disabledReason === undefined,
    disabledReason,
    batchSize: whole(options.batchSize, 500, 1, WIRE_LIMITS.maxBatch),
    flushIntervalMs: whole(options.flushIntervalMs, 2000, 10, 3_600_000),
    maxQueueSize: whole(options.maxQueueSize, 10_000, 1, 10_000_000),
    maxRetries: whole(options.maxRetries, 5, 0, 100),
    retryBaseMs: whole(options.retryBaseMs, 500, 1, 3_600_000),
    retryMaxMs: whole(options.retryMaxMs, 30_000, 1, 3_600_000),
    timeoutMs: whole(options.timeoutMs, 10_000, 1, 3_600_000),
    gzip: options.gzip ?? true,
    trustProxy: options.trustProxy ?? false,
    captureHeaders: options.captureHeaders ?? false,
    redactHeaders: (options.redactHeaders ?? []).map((p) => (typeof p === "string" ? p : stateless(p))),
    captureBodies: options.captureBodies ?? false,
    maxBodyBytes: whole(options.maxBodyBytes, 8192, 0, WIRE_LIMITS.payloadBytes),
    // Without g/y: test() on a global pattern keeps state between calls and would skip keys.
    redactBodyKeys: stateless(options.redactBodyKeys ?? DEFAULT_BODY_KEYS),
    identifyConsumer: options.identifyConsumer,
    ignorePaths: options.ignorePaths ?? [],
    captureConsole: options.captureConsole ?? false,
    captureErrors: options.captureErrors ?? true,
    heartbeat: options.heartbeat ?? true,
    heartbeatIntervalMs: whole(options.heartbeatIntervalMs, 60_000, 1000, 3_600_000),
    flushOnSigterm: options.flushOnSigterm ?? false,
    closeTimeoutMs: whole(options.closeTimeoutMs, 5000, 0, 3_600_000),
    debug: options.debug ?? false,
    logger: options.logger ?? consoleLogger,
  });
}
