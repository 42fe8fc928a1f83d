// The framework-free core: adapters open an Exchange per request and finish it; the client
// turns exchanges and log lines into wire records and hands them to one shipper per kind.
// Every public method is safe to call at any time: off, closed or failing, it does nothing.
import { clientIp } from "./capture/client-ip.js";
import { type ConsumerInput, Exchange, originForm, toConsumer } from "./capture/exchange.js";
import { captureHeaders, cutUtf8, type RedactionRules, wellFormed } from "./capture/redact.js";
import { traceIdFrom } from "./capture/trace.js";
import { validationIssues } from "./capture/validation.js";
import { currentExchange } from "./context.js";
import { captureConsole } from "./logs/console.js";
import { type ResolvedOptions, resolveOptions, type SightlineOptions } from "./options.js";
import { Diagnostics } from "./transport/diagnostics.js";
import { createPoster, type Poster } from "./transport/post.js";
import { Heartbeat } from "./transport/heartbeat.js";
import { requestEncoder } from "./transport/encode.js";
import { Shipper, type ShipperStats } from "./transport/shipper.js";
import { SDK_VERSION } from "./version.js";
import { type LogRecordWire, WIRE_LIMITS } from "./wire.js";

/** Log levels as Sightline stores them. */
export type LogLevel = LogRecordWire["level"];

/** Extra fields of a log line: flat values become attributes, the rest goes to the payload. */
export type LogFields = Record<string, unknown>;

/** Reads one request header (lower-case name) from where an adapter keeps them. */
export type HeaderReader<Source> = (source: Source, name: string) => string | undefined;

/** Counts since the SDK started, per kind. */
export interface SightlineStats {
  requests: ShipperStats;
  logs: ShipperStats;
}

const EMPTY_STATS: ShipperStats = { queued: 0, sent: 0, rejected: 0, dropped: 0, failed: 0 };

/** A Sightline client: create one per process with {@link createSightline} and pass it to an adapter. */
export class Sightline {
  readonly options: ResolvedOptions;
  /** False without an API key or app, after `enabled: false`, and once closed. */
  enabled: boolean;
  /** @internal */
  readonly diagnostics: Diagnostics;
  /** @internal */
  readonly redaction: RedactionRules;
  private readonly requests: Shipper<Exchange> | undefined;
  private readonly logs: Shipper<LogRecordWire> | undefined;
  private readonly poster: Poster | undefined;
  private closing: Promise<SightlineStats> | undefined;
  private sigterm: (() => void) | undefined;
  private stopConsole: (() => void) | undefined;
  private readonly heartbeat: Heartbeat | undefined;

  constructor(options: SightlineOptions = {}) {
    this.options = resolveOptions(options);
    this.diagnostics = new Diagnostics(this.options.logger, this.options.debug);
    this.redaction = {
      headerPatterns: this.options.redactHeaders,
      bodyKeys: this.options.redactBodyKeys,
      maxBodyBytes: this.options.maxBodyBytes,
    };
    this.enabled = this.options.enabled;
    if (!this.enabled) {
      if (options.enabled !== false) this.diagnostics.warn(`SDK off: ${this.options.disabledReason}`);
      return;
    }
    const settings = this.options;
    this.poster = createPoster({
      url: settings.url,
      apiKey: settings.apiKey,
      timeoutMs: settings.timeoutMs,
      userAgent: `sightline-node/${SDK_VERSION}`,
    });
    const common = { settings, poster: this.poster, diagnostics: this.diagnostics };
    this.requests = new Shipper<Exchange>({
      ...common,
      kind: "requests",
      toWire: requestEncoder({
        app: settings.app,
        environment: settings.environment,
        projectSlug: settings.projectSlug,
        secretKeys: settings.redactBodyKeys,
      }),
    });
    this.logs = new Shipper<LogRecordWire>({
      ...common,
      kind: "logs",
      toWire: (record) => record,
    });
    if (settings.heartbeat) {
      this.heartbeat = new Heartbeat(
        {
          app: settings.app,
          environment: settings.environment,
          projectSlug: settings.projectSlug,
          intervalMs: settings.heartbeatIntervalMs,
        },
        this.poster,
        this.diagnostics,
      );
      this.heartbeat.start();
    }
    if (settings.flushOnSigterm) this.hookSigterm();
    if (settings.captureConsole) this.stopConsole = captureConsole(this);
    this.diagnostics.debug(
      () => `sending to ${settings.url.href} as app ${settings.app} (${settings.environment})`,
    );
  }

  /**
   * @internal Opens the record of a request, or returns undefined when it is not recorded.
   * `url` is the request target (`/orders/7?expand=1`) or an absolute URL.
   */
  begin<Source>(
    method: string,
    url: string,
    remoteAddress: string | undefined,
    readHeader: HeaderReader<Source>,
    headers: Source,
  ): Exchange | undefined {
    if (!this.enabled) return undefined;
    try {
      // Path and query cut in place: a { path, query } pair was an allocation per request
      // (bench:sdk-profile).
      const target = originForm(url);
      const mark = target.indexOf("?");
      const path = mark === -1 ? target : target.slice(0, mark);
      const query = mark === -1 ? "" : target.slice(mark + 1);
      if (this.options.ignorePaths.length > 0 && this.ignored(path)) return undefined;
      const incoming = traceIdFrom(readHeader(headers, "traceparent"));
      const exchange = new Exchange(method.toUpperCase(), path, query, incoming);
      const trust = this.options.trustProxy;
      exchange.ip = clientIp(
        remoteAddress,
        trust === false ? undefined : readHeader(headers, "x-forwarded-for"),
        trust,
      );
      exchange.userAgent = readHeader(headers, "user-agent") ?? "";
      const length = readHeader(headers, "content-length");
      if (length !== undefined) {
        const bytes = Number(length);
        if (Number.isSafeInteger(bytes) && bytes > 0) exchange.requestSize = bytes;
      }
      return exchange;
    } catch (error) {
      this.diagnostics.warnOnce("begin", `could not record a request: ${String(error)}`);
      return undefined;
    }
  }

  /** @internal Remembers an exception that escaped the request's handler (sent at finish). */
  recordError(exchange: Exchange | undefined, error: unknown): void {
    if (exchange === undefined) return;
    // A validator's failure is the request's answer (400/422), not an exception.
    if (this.recordValidation(exchange, error)) return;
    if (!this.options.captureErrors || exchange.errorRecorded) return;
    // Errors that carry a 4xx status (validation, not found) are answers, not failures.
    if (clientErrorStatus(error)) return;
    exchange.errorRecorded = true;
    try {
      // The stack is what error grouping fingerprints (type, message, top frames): a thrown
      // non-Error has none, and one made up here would point at the SDK, so none is sent.
      const err = error instanceof Error ? error : undefined;
      const name = err?.name ?? "NonError";
      const message = err === undefined ? String(error) : err.message;
      const record: LogRecordWire = {
        ...this.logBase("ERROR", cutUtf8(`${name}: ${message}`, WIRE_LIMITS.messageBytes), Date.now()),
        logger_name: "sightline.errors",
        attributes: { error_type: name },
        ...this.linkFields(exchange),
      };
      if (err?.stack !== undefined) record.payload = cutUtf8(err.stack, WIRE_LIMITS.payloadBytes);
      this.logs?.enqueue(record);
    } catch (failure) {
      this.diagnostics.warnOnce("error-log", `could not record an error: ${String(failure)}`);
    }
  }

  /** @internal Notes why a validator refused the request; false when `failure` is no validation failure. */
  recordValidation(exchange: Exchange, failure: unknown): boolean {
    try {
      const issues = validationIssues(failure);
      if (issues === undefined) return false;
      exchange.validationErrors = issues;
      return true;
    } catch (error) {
      this.diagnostics.warnOnce("validation", `could not read a validation failure: ${String(error)}`);
      return false;
    }
  }

  /**
   * @internal Closes the record of a request. `request` is the framework's request object,
   * handed to `identifyConsumer` when the app named no consumer itself.
   */
  finish(
    exchange: Exchange | undefined,
    status: number,
    request?: unknown,
    identify?: (request: unknown) => ConsumerInput,
  ): void {
    if (exchange === undefined || exchange.finished) return;
    exchange.finished = true;
    try {
      if (exchange.durationMs === 0) exchange.durationMs = performance.now() - exchange.startedAt;
      exchange.status = status;
      const namer = identify ?? this.options.identifyConsumer;
      if (exchange.consumer === undefined && namer !== undefined && request !== undefined) {
        exchange.consumer = this.identify(namer, request);
      }
      if (status < 100 || status > 599) return;
      this.requests?.enqueue(exchange);
    } catch (error) {
      this.diagnostics.warnOnce("finish", `could not record a request: ${String(error)}`);
    }
  }

  /**
   * Sends one log line, linked to the current request when it runs inside one (see the log
   * integrations). Never throws.
   *
   * @example
   * sightline.log("WARNING", "payment provider slow", { provider: "acme", ms: 2300 });
   */
  log(level: LogLevel, message: string, fields?: LogFields, loggerName?: string): void {
    if (!this.enabled) return;
    try {
      const text = message === "" ? "(empty message)" : cutUtf8(message, WIRE_LIMITS.messageBytes);
      const record: LogRecordWire = this.logBase(level, text, Date.now());
      if (loggerName !== undefined && loggerName !== "") record.logger_name = loggerName.slice(0, 256);
      if (fields !== undefined) Object.assign(record, splitFields(fields));
      const exchange = currentExchange();
      if (exchange !== undefined) Object.assign(record, this.linkFields(exchange));
      this.logs?.enqueue(record);
    } catch (error) {
      this.diagnostics.warnOnce("log", `could not record a log line: ${String(error)}`);
    }
  }

  /** Starts sending everything queued now, without waiting. */
  flush(): void {
    this.requests?.flush();
    this.logs?.flush();
  }

  /** Counts of records queued, sent, rejected, dropped and failed, per kind. */
  stats(): SightlineStats {
    return {
      requests: this.requests?.stats() ?? { ...EMPTY_STATS },
      logs: this.logs?.stats() ?? { ...EMPTY_STATS },
    };
  }

  /**
   * Stops recording and sends what is queued, giving up after `timeoutMs` (default: the
   * `closeTimeoutMs` option, 5000). Resolves with the final counts; never rejects.
   *
   * @example
   * process.on("SIGINT", async () => { await sightline.close(); process.exit(0); });
   */
  close(timeoutMs: number = this.options.closeTimeoutMs): Promise<SightlineStats> {
    this.closing ??= (async () => {
      this.enabled = false;
      this.heartbeat?.stop();
      if (this.sigterm !== undefined) process.removeListener("SIGTERM", this.sigterm);
      this.stopConsole?.();
      const deadline = Date.now() + Math.max(0, timeoutMs);
      try {
        await Promise.all([this.requests?.close(deadline), this.logs?.close(deadline)]);
      } catch (error) {
        this.diagnostics.warn(`close failed: ${String(error)}`);
      }
      this.poster?.close();
      return this.stats();
    })();
    return this.closing;
  }

  private identify(namer: (request: unknown) => ConsumerInput, request: unknown) {
    try {
      return toConsumer(namer(request));
    } catch (error) {
      this.diagnostics.warnOnce("identify", `identifyConsumer threw: ${String(error)}`);
      return undefined;
    }
  }

  private ignored(path: string): boolean {
    return this.options.ignorePaths.some((pattern) =>
      typeof pattern === "string" ? pattern === path : pattern.test(path),
    );
  }

  private logBase(level: LogLevel, message: string, at: number): LogRecordWire {
    return {
      app_id: this.options.app,
      ...(this.options.projectSlug === undefined ? {} : { project_slug: this.options.projectSlug }),
      timestamp: new Date(at).toISOString(),
      environment: this.options.environment,
      level,
      message,
    };
  }

  private linkFields(exchange: Exchange): Partial<LogRecordWire> {
    return {
      trace_id: exchange.traceId,
      span_id: exchange.spanId,
      endpoint_method: exchange.method,
      endpoint_path: exchange.path.slice(0, WIRE_LIMITS.pathLength),
      ...(exchange.consumer === undefined ? {} : { consumer_id: exchange.consumer.id }),
    };
  }

  /** @internal Headers as captured, when the options ask for them. */
  headers(entries: Iterable<[string, string | string[] | number | undefined]>): Record<string, string> {
    return captureHeaders(entries, this.redaction);
  }

  private hookSigterm(): void {
    this.sigterm = () => {
      const others = process.listenerCount("SIGTERM");
      void this.close().then(() => {
        // Alone, we took over Node's default exit on SIGTERM: give it back.
        if (others === 0) process.kill(process.pid, "SIGTERM");
      });
    };
    process.once("SIGTERM", this.sigterm);
  }
}

function clientErrorStatus(error: unknown): boolean {
  if (error === null || typeof error !== "object") return false;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const code = typeof statusCode === "number" ? statusCode : status;
  return typeof code === "number" && code >= 400 && code < 500;
}

/** Flat values become attributes (at most 64); nested ones go to the payload as JSON. */
function splitFields(fields: LogFields): Partial<LogRecordWire> {
  const attributes: Record<string, string | number | boolean> = {};
  const rest: Record<string, unknown> = {};
  let count = 0;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const flat =
      typeof value === "string" ||
      typeof value === "boolean" ||
      (typeof value === "number" && Number.isFinite(value));
    if (
      flat &&
      count < WIRE_LIMITS.attributeCount &&
      key !== "" &&
      key.length <= WIRE_LIMITS.attributeKeyLength
    ) {
      attributes[key] = typeof value === "string" ? wellFormed(value) : (value as number | boolean);
      count += 1;
    } else {
      rest[key] =
        value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
    }
  }
  const out: Partial<LogRecordWire> = {};
  if (count > 0) out.attributes = attributes;
  if (Object.keys(rest).length > 0) {
    try {
      out.payload = cutUtf8(JSON.stringify(rest), WIRE_LIMITS.payloadBytes);
    } catch {
      // Circular or otherwise unserialisable: the line still goes, without its payload.
    }
  }
  return out;
}

/**
 * Creates the Sightline client for this process. Pass it to one adapter per app.
 *
 * @example
 * import { createSightline } from "@sightline/node";
 * const sightline = createSightline({
 *   apiKey: process.env.SIGHTLINE_API_KEY, // default: SIGHTLINE_API_KEY
 *   app: "checkout-api",                    // slug or UUID; default: SIGHTLINE_APP
 *   url: "https://sightline.example.com",   // default: SIGHTLINE_URL or http://localhost:8080
 *   environment: "production",              // default: SIGHTLINE_ENVIRONMENT or NODE_ENV
 * });
 */
export function createSightline(options: SightlineOptions = {}): Sightline {
  return new Sightline(options);
}
