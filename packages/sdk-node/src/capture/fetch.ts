// Recording a request served as a web-standard fetch handler (Request in, Response out): Hono
// on fetch runtimes and Next.js route handlers. The request ends when the handler returns its
// Response; its size is the Content-Length when the Response has one.
import type { Sightline } from "../client.js";
import { runInScope, tag } from "../context.js";
import type { ConsumerInput, Exchange } from "./exchange.js";
import { CLIENT_CLOSED } from "./node-http.js";
import { captureBody, isCapturable } from "./redact.js";

export interface FetchHooks {
  readonly remoteAddress: string | undefined;
  /** X-Forwarded-For as the adapter vouches for it, when it differs from the header (Next.js). */
  readonly forwardedFor?: string | null;
  /** The framework's request object, for `identifyConsumer`. */
  readonly request: unknown;
  readonly identify: ((request: unknown) => ConsumerInput) | undefined;
  /** Another object `setConsumer` should recognise (a framework context). */
  readonly tagAlso?: object;
  readonly handle: () => Promise<Response>;
  /** Runs after the handler returned, before the record is closed (route, errors). */
  readonly afterHandle?: (exchange: Exchange) => void;
  /** Status recorded when the handler throws (Next.js answers 500). */
  readonly thrownStatus?: number;
}

export async function observeFetchExchange(
  sightline: Sightline,
  request: Request,
  hooks: FetchHooks,
): Promise<Response> {
  const exchange = sightline.begin(request.method, request.url, hooks.remoteAddress, readFetchHeader, {
    headers: request.headers,
    forwardedFor: hooks.forwardedFor,
  });
  if (exchange === undefined) return hooks.handle();
  exchange.scheme = fetchScheme(request, sightline.options.trustProxy !== false);
  tag(request, exchange);
  if (hooks.tagAlso !== undefined) tag(hooks.tagAlso, exchange);
  const { captureBodies, captureHeaders } = sightline.options;
  const requestType = request.headers.get("content-type");
  // Cloned before the handler reads it; only when bodies are captured and worth keeping.
  const requestCopy = captureBodies && isCapturable(requestType) ? safeClone(request) : undefined;

  let response: Response;
  try {
    response = await runInScope(exchange, hooks.handle);
  } catch (error) {
    sightline.recordError(exchange, error);
    hooks.afterHandle?.(exchange);
    sightline.finish(exchange, hooks.thrownStatus ?? 500, hooks.request, hooks.identify);
    throw error;
  }
  exchange.durationMs = performance.now() - exchange.startedAt;
  try {
    hooks.afterHandle?.(exchange);
    const length = Number(response.headers.get("content-length"));
    if (Number.isSafeInteger(length) && length >= 0) exchange.responseSize = length;
    if (captureHeaders) {
      exchange.requestHeaders = sightline.headers(request.headers.entries());
      exchange.responseHeaders = sightline.headers(response.headers.entries());
    }
  } catch (error) {
    sightline.diagnostics.warnOnce("fetch-finish", `could not read a response: ${String(error)}`);
  }
  const responseType = response.headers.get("content-type");
  const sizeKnown = response.headers.has("content-length") || response.body === null;
  const keepResponse = captureBodies && isCapturable(responseType);
  if (!keepResponse && requestCopy === undefined) {
    if (sizeKnown) {
      sightline.finish(exchange, response.status, hooks.request, hooks.identify);
      return response;
    }
    // No Content-Length: count the bytes as they go out, and close the record at the last one.
    return countedResponse(response, (bytes, complete) => {
      exchange.responseSize = bytes;
      exchange.durationMs = performance.now() - exchange.startedAt;
      sightline.finish(exchange, complete ? response.status : CLIENT_CLOSED, hooks.request, hooks.identify);
    });
  }
  // Read in the background: a streamed response goes out as it is produced.
  const responseCopy = keepResponse ? safeClone(response) : undefined;
  void Promise.all([
    requestCopy?.text().catch(() => ""),
    responseCopy?.arrayBuffer().catch(() => new ArrayBuffer(0)),
  ]).then(([requestText, responseBytes]) => {
    exchange.requestBody = captureBody(requestText, requestType, sightline.redaction);
    if (responseBytes !== undefined) {
      if (!sizeKnown) exchange.responseSize = responseBytes.byteLength;
      exchange.responseBody = captureBody(Buffer.from(responseBytes), responseType, sightline.redaction);
    }
    sightline.finish(exchange, response.status, hooks.request, hooks.identify);
  });
  return response;
}

/** The same response with a body that reports its byte count once fully sent (or abandoned). */
function countedResponse(response: Response, done: (bytes: number, complete: boolean) => void): Response {
  let bytes = 0;
  let reported = false;
  const report = (complete: boolean) => {
    if (reported) return;
    reported = true;
    done(bytes, complete);
  };
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          report(true);
          return;
        }
        bytes += value.byteLength;
        controller.enqueue(value);
      } catch (error) {
        report(false);
        controller.error(error);
      }
    },
    cancel(reason) {
      report(false);
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** The request URL's scheme, or trusting proxies the first X-Forwarded-Proto entry. */
function fetchScheme(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const first = request.headers.get("x-forwarded-proto")?.split(",", 1)[0]?.trim().toLowerCase();
    if (first === "http" || first === "https") return first;
  }
  return request.url.startsWith("https:") ? "https" : "http";
}

function readFetchHeader(
  source: { headers: Headers; forwardedFor: string | null | undefined },
  name: string,
): string | undefined {
  if (name === "x-forwarded-for" && source.forwardedFor !== undefined)
    return source.forwardedFor ?? undefined;
  return source.headers.get(name) ?? undefined;
}

function safeClone<T extends Request | Response>(message: T): T | undefined {
  try {
    return message.bodyUsed ? undefined : (message.clone() as T);
  } catch {
    return undefined;
  }
}
