// Recording a request served by node:http (Express, Fastify, Koa, NestJS, Hono on Node): the
// response's own events give the status, the bytes written and the moment the last byte left.
// The route and the parsed request body are read at the end, after the framework routed.
//
// ServerResponse's write/end/writeHead are wrapped once, on the prototype, and do their extra
// work only for responses that carry a recording; a request then costs one state object and
// one 'close' listener, with no closures: measured, per-request closures were the bulk of the
// SDK's own time (see docs/performance.md). The recording hangs off the request's exchange,
// found from the response through `res.req` and the one WeakMap entry that tags the request
// (not a key on the response: Express's are dictionary-mode objects that a new key makes V8
// re-allocate; not a second WeakMap entry: V8's WeakMap work per Express request halved
// without it, measured per function in docs/performance.md).
import { type IncomingHttpHeaders, type IncomingMessage, ServerResponse } from "node:http";
import type { Sightline } from "../client.js";
import { tag, taggedExchange } from "../context.js";
import type { ConsumerInput, Exchange } from "./exchange.js";
import { captureBody } from "./redact.js";

/** What an adapter knows about its framework, given once per middleware. */
export interface NodeAdapter<Native> {
  /** The route template of a finished request (undefined when no route matched). */
  route(native: Native, req: IncomingMessage): string | undefined;
  /** The request body as the framework parsed it (read only when bodies are captured). */
  body?(native: Native): unknown;
  /** The scheme as the framework tells it (honouring its own trust-proxy setting). Default:
   *  the socket's, or X-Forwarded-Proto with the client's `trustProxy`. */
  scheme?(native: Native): string | undefined;
  /** Validation errors the framework kept on a refused request (read only for 400 and 422). */
  validation?(native: Native): unknown;
  /** The exception the framework caught while handling the request, read once it closed. */
  error?(native: Native): unknown;
  /** The adapter's `identifyConsumer`, used before the client's. */
  readonly identify?: ((native: Native) => ConsumerInput) | undefined;
}

/** Status recorded when the client went away before the response was complete (nginx's). */
export const CLIENT_CLOSED = 499;

class NodeRecording {
  written = 0;
  kept: Buffer[] | undefined = undefined;
  keptBytes = 0;
  headHeaders: Record<string, unknown> | undefined = undefined;

  constructor(
    readonly sightline: Sightline,
    readonly exchange: Exchange,
    readonly req: IncomingMessage,
    readonly adapter: NodeAdapter<unknown>,
    readonly native: unknown,
    readonly keepBody: boolean,
  ) {}

  count(chunk: unknown, encoding: unknown): void {
    if (typeof chunk === "string") {
      const enc = typeof encoding === "string" && Buffer.isEncoding(encoding) ? encoding : "utf8";
      this.written += Buffer.byteLength(chunk, enc);
      if (this.keepBody) this.keep(Buffer.from(chunk, enc));
    } else if (chunk instanceof Uint8Array) {
      this.written += chunk.byteLength;
      if (this.keepBody) this.keep(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    }
  }

  private keep(bytes: Buffer): void {
    const room = this.sightline.redaction.maxBodyBytes - this.keptBytes;
    if (room <= 0) return;
    const part = Buffer.from(bytes.subarray(0, room));
    (this.kept ??= []).push(part);
    this.keptBytes += part.length;
  }
}

/** The recording of a response in flight (undefined once it closed, or when not recorded). */
function recordingOf(res: ServerResponse): NodeRecording | undefined {
  const req = res.req as IncomingMessage | undefined;
  const recording = req === undefined ? undefined : taggedExchange(req)?.recording;
  return recording instanceof NodeRecording ? recording : undefined;
}

let wrapped = false;

/** Wraps ServerResponse's output methods once per process; unrecorded responses pay one lookup. */
function wrapServerResponse(): void {
  if (wrapped) return;
  wrapped = true;
  const proto = ServerResponse.prototype;
  const { write, end, writeHead } = proto;
  proto.write = function (this: ServerResponse, chunk: unknown, encoding?: unknown) {
    const state = recordingOf(this);
    if (state !== undefined) state.count(chunk, encoding);
    // eslint-disable-next-line prefer-rest-params -- pass the caller's arguments through untouched
    return Reflect.apply(write, this, arguments) as boolean;
  } as ServerResponse["write"];
  proto.end = function (this: ServerResponse, chunk?: unknown, encoding?: unknown) {
    const state = recordingOf(this);
    if (state !== undefined && typeof chunk !== "function") state.count(chunk, encoding);
    // eslint-disable-next-line prefer-rest-params -- as above
    return Reflect.apply(end, this, arguments) as ServerResponse;
  } as ServerResponse["end"];
  proto.writeHead = function (this: ServerResponse) {
    const state = recordingOf(this);
    // Headers handed straight to writeHead (Fastify does) never show in getHeaders().
    if (state !== undefined && (state.keepBody || state.sightline.options.captureHeaders)) {
      // eslint-disable-next-line prefer-rest-params -- as above
      const last: unknown = arguments[arguments.length - 1];
      if (last !== null && typeof last === "object") state.headHeaders = headerObject(last);
    }
    // eslint-disable-next-line prefer-rest-params -- as above
    return Reflect.apply(writeHead, this, arguments) as ServerResponse;
  } as ServerResponse["writeHead"];
}

export function readNodeHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Opens the exchange of a node:http request and closes it when the response is done. */
export function observeNodeRequest<Native>(
  sightline: Sightline,
  req: IncomingMessage,
  res: ServerResponse,
  adapter: NodeAdapter<Native>,
  native: Native,
): Exchange | undefined {
  // Express (and Nest on it) rewrite req.url below a mount; originalUrl keeps the whole target.
  const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? "/";
  const exchange = sightline.begin(
    req.method ?? "GET",
    target,
    req.socket?.remoteAddress,
    readNodeHeader,
    req.headers,
  );
  if (exchange === undefined) return undefined;
  wrapServerResponse();
  tag(req, exchange);
  exchange.recording = new NodeRecording(
    sightline,
    exchange,
    req,
    adapter as NodeAdapter<unknown>,
    native,
    sightline.options.captureBodies,
  );
  res.on("close", onClose);
  return exchange;
}

function onClose(this: ServerResponse): void {
  const state = recordingOf(this);
  if (state === undefined) return;
  const { sightline, exchange, adapter, native, req } = state;
  exchange.recording = undefined;
  try {
    // An adapter may have named the route already (the NestJS interceptor does).
    exchange.route ??= adapter.route(native, req);
    // Without X-Forwarded-Proto every framework answers with the socket's scheme: its getter
    // (Express's reads the app's trust-proxy function) is only worth calling with one.
    const forwarded = req.headers["x-forwarded-proto"] !== undefined;
    exchange.scheme = schemeOf(
      forwarded ? adapter.scheme?.(native) : undefined,
      req,
      forwarded && sightline.options.trustProxy !== false,
    );
    const failure = adapter.error?.(native);
    if (failure !== undefined) sightline.recordError(exchange, failure);
    const status = this.statusCode;
    if ((status === 400 || status === 422) && exchange.validationErrors === undefined && adapter.validation) {
      sightline.recordValidation(exchange, adapter.validation(native));
    }
    const length = Number(this.getHeader("content-length") ?? state.headHeaders?.["content-length"]);
    exchange.responseSize =
      Number.isSafeInteger(length) && length >= 0 && this.req?.method !== "HEAD" ? length : state.written;
    if (sightline.options.captureHeaders || state.keepBody) {
      const sent =
        state.headHeaders === undefined ? this.getHeaders() : { ...this.getHeaders(), ...state.headHeaders };
      if (sightline.options.captureHeaders) {
        exchange.requestHeaders = sightline.headers(Object.entries(req.headers));
        exchange.responseHeaders = sightline.headers(
          Object.entries(sent) as [string, string | string[] | number | undefined][],
        );
      }
      if (state.keepBody) {
        const body = exchange.parsedBody ?? adapter.body?.(native);
        exchange.requestBody = captureBody(
          body,
          readNodeHeader(req.headers, "content-type"),
          sightline.redaction,
        );
        const type = sent["content-type"];
        exchange.responseBody = captureBody(
          Buffer.concat(state.kept ?? []),
          typeof type === "string" ? type : undefined,
          sightline.redaction,
        );
      }
    }
  } catch (error) {
    sightline.diagnostics.warnOnce("node-finish", `could not read a finished response: ${String(error)}`);
  }
  const identify = adapter.identify as ((request: unknown) => ConsumerInput) | undefined;
  sightline.finish(exchange, this.writableFinished ? this.statusCode : CLIENT_CLOSED, native, identify);
}

/** `http` or `https`: the framework's word when it has one, else the socket's (or, trusting
 *  proxies, the first X-Forwarded-Proto entry). */
function schemeOf(told: string | undefined, req: IncomingMessage, trustProxy: boolean): string {
  if (told === "http" || told === "https") return told;
  if (trustProxy) {
    const forwarded = readNodeHeader(req.headers, "x-forwarded-proto");
    if (forwarded !== undefined) {
      const first = forwarded.split(",", 1)[0]?.trim().toLowerCase();
      if (first === "http" || first === "https") return first;
    }
  }
  return (req.socket as { encrypted?: boolean } | null)?.encrypted === true ? "https" : "http";
}

/** writeHead's headers (an object, or a flat [name, value, ...] list) with lower-case names. */
function headerObject(value: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (Array.isArray(value)) {
    for (let i = 0; i + 1 < value.length; i += 2) out[String(value[i]).toLowerCase()] = value[i + 1];
  } else {
    for (const [name, inner] of Object.entries(value)) out[name.toLowerCase()] = inner;
  }
  return out;
}
