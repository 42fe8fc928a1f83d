// A small HTTP service instrumented by hand with the OpenTelemetry JS SDK, as an application
// would be: each request is a SERVER span carrying HTTP semantic-convention attributes (the
// current names, or the older ones), and handlers emit log records inside the span. Spans and
// logs leave through the real OTLP/HTTP exporters, configured from the standard environment
// variables (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, ...).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { context, type Span, SpanKind, trace } from "@opentelemetry/api";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { OTLPLogExporter as JsonLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPLogExporter as ProtoLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

export interface InstrumentedAppOptions {
  /** `protobuf`: the -proto exporters; `json`: the -http (OTLP/JSON) exporters. */
  readonly protocol: "protobuf" | "json";
  /** The variables an operator would set; applied while the exporters read their settings. */
  readonly env: Readonly<Record<string, string>>;
  /** Resource attributes (service.name, deployment.environment.name, ...). */
  readonly resource: Readonly<Record<string, string>>;
  /** Which HTTP semantic-convention names the spans carry. */
  readonly conventions: "current" | "legacy";
}

export interface InstrumentedApp {
  readonly url: string;
  /** Trace and span ids of every handled request, by `METHOD path`. */
  readonly spans: Map<string, { traceId: string; spanId: string }>;
  /** Waits until every span and log record has been exported. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Routes of the service: `/users/:id` (GET), `/orders` (POST), anything else 404. */
function route(method: string, path: string): { route: string; status: number } | null {
  if (method === "GET" && /^\/users\/[^/]+$/.test(path)) return { route: "/users/:id", status: 200 };
  if (method === "POST" && path === "/orders") return { route: "/orders", status: 201 };
  return null;
}

export async function startInstrumentedApp(options: InstrumentedAppOptions): Promise<InstrumentedApp> {
  const saved = Object.fromEntries(Object.keys(options.env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, options.env);
  let traceExporter, logExporter;
  try {
    traceExporter = options.protocol === "protobuf" ? new ProtoTraceExporter() : new JsonTraceExporter();
    logExporter = options.protocol === "protobuf" ? new ProtoLogExporter() : new JsonLogExporter();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  const resource = resourceFromAttributes(options.resource);
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: [new SimpleSpanProcessor(traceExporter)],
  });
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [new SimpleLogRecordProcessor({ exporter: logExporter })],
  });
  const tracer = tracerProvider.getTracer("shop.http", "1.0.0");
  const logger = loggerProvider.getLogger("shop.orders");
  const spans = new Map<string, { traceId: string; spanId: string }>();
  const legacy = options.conventions === "legacy";

  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const method = request.method ?? "GET";
      const url = new URL(request.url ?? "/", "http://localhost");
      const matched = route(method, url.pathname);
      const span: Span = tracer.startSpan(matched === null ? method : `${method} ${matched.route}`, {
        kind: SpanKind.SERVER,
        attributes: legacy
          ? {
              "http.method": method,
              "http.target": `${url.pathname}${url.search}`,
              "net.peer.ip": request.socket.remoteAddress ?? "",
              "http.user_agent": request.headers["user-agent"] ?? "",
              "http.request_content_length": Buffer.concat(chunks).length,
            }
          : {
              "http.request.method": method,
              "url.path": url.pathname,
              ...(url.search === "" ? {} : { "url.query": url.search.slice(1) }),
              "client.address": request.socket.remoteAddress ?? "",
              "user_agent.original": request.headers["user-agent"] ?? "",
              "http.request.body.size": Buffer.concat(chunks).length,
              ...(typeof request.headers["x-customer"] === "string"
                ? { "enduser.id": request.headers["x-customer"] }
                : {}),
            },
      });
      spans.set(`${method} ${url.pathname}${url.search}`, {
        traceId: span.spanContext().traceId,
        spanId: span.spanContext().spanId,
      });
      if (matched !== null) span.setAttribute("http.route", matched.route);
      if (matched?.route === "/users/:id") {
        // Work inside the request: an INTERNAL child span, as a database call would be.
        tracer
          .startSpan("load user", { kind: SpanKind.INTERNAL }, trace.setSpan(context.active(), span))
          .end();
      }
      const status = matched?.status ?? 404;
      if (method === "POST") {
        logger.emit({
          severityNumber: SeverityNumber.WARN,
          severityText: "WARN",
          body: "order took the slow path",
          attributes: {
            "order.items": 3,
            "order.express": true,
            "http.request.method": method,
            "url.path": url.pathname,
          },
          context: trace.setSpan(context.active(), span),
        });
      }
      const body = JSON.stringify(status === 404 ? { error: "not found" } : { ok: true });
      span.setAttribute(legacy ? "http.status_code" : "http.response.status_code", status);
      span.setAttribute(
        legacy ? "http.response_content_length" : "http.response.body.size",
        Buffer.byteLength(body),
      );
      response.writeHead(status, { "content-type": "application/json" }).end(body);
      span.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    async flush() {
      await tracerProvider.forceFlush();
      await loggerProvider.forceFlush();
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await tracerProvider.shutdown();
      await loggerProvider.shutdown();
    },
  };
}
