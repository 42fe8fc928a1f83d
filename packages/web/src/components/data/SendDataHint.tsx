// Below an empty Requests, Logs or Traces list: how to send that kind of data (the SDK, its log
// integrations, OpenTelemetry), so an empty page is a next step rather than a dead end.
import { CodeBlock } from "../ui/Code";
import styles from "./Data.module.css";

export type SentKind = "requests" | "logs" | "traces";

const HINTS: Record<SentKind, { text: string; title: string; code: (origin: string) => string }> = {
  requests: {
    text: "Requests arrive from an app instrumented with @sightline/node (see the app's setup page for your framework).",
    title: "Install the Node SDK",
    code: () => "npm install @sightline/node",
  },
  logs: {
    text: "Logs arrive from the Node SDK's log integrations (pino, winston, console) or from any OpenTelemetry log exporter.",
    title: "pino, with @sightline/node",
    code: () =>
      [
        'import pino from "pino";',
        'import { sightlinePinoStream } from "@sightline/node/pino";',
        "const logger = pino({}, pino.multistream([",
        "  { stream: process.stdout },",
        "  { stream: sightlinePinoStream(sightline) },",
        "]));",
      ].join("\n"),
  },
  traces: {
    text: "Traces arrive over OTLP/HTTP from any OpenTelemetry SDK: point its exporter at Sightline with the app's API key.",
    title: "OpenTelemetry exporter settings",
    code: (origin) =>
      [
        `export OTEL_EXPORTER_OTLP_ENDPOINT=${origin}/api/v1/otlp`,
        "export OTEL_EXPORTER_OTLP_HEADERS=x-api-key=$SIGHTLINE_API_KEY",
        "export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf",
      ].join("\n"),
  },
};

export function SendDataHint({ kind }: { kind: SentKind }) {
  const hint = HINTS[kind];
  return (
    <section className={styles.drawerSection} aria-label={`How to send ${kind}`}>
      <p>{hint.text}</p>
      <CodeBlock code={hint.code(window.location.origin)} label={hint.title} title={hint.title} />
    </section>
  );
}
