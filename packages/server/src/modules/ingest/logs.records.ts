// The log-record kind: how one record of POST /ingest/logs becomes a row of api_logs (level
// aliases, attribute rules, the endpoint it mentions reduced to a route template).
import {
  INGEST_LIMITS,
  type IngestLogRecord,
  IngestLogRecordSchema,
  LOG_LEVEL_ALIASES,
  LOG_LEVELS,
  normaliseLogLevel,
} from "@sightline/contracts";
import { readHexId, type RecordKind, type RecordProblem } from "./records.js";
import { escapePointer } from "./requests.records.js";
import { deriveRouteTemplate } from "./route-template.js";
import { cutChars, cutUtf8 } from "./text.js";

/** api_logs columns, in the order rows are serialised (see the 0002 events migration). */
export const LOG_COLUMNS = [
  "id",
  "project_id",
  "app_id",
  "timestamp",
  "environment",
  "level",
  "message",
  "logger_name",
  "payload",
  "attributes",
  "trace_id",
  "span_id",
  "endpoint_method",
  "endpoint_path",
  "endpoint_route",
  "status_code",
  "consumer_id",
] as const;

/** Shared by every record without attributes; only ever serialised, never changed. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});

const LEVEL_MESSAGE =
  `must be one of ${LOG_LEVELS.join(", ")} ` +
  `(or ${Object.keys(LOG_LEVEL_ALIASES).join(", ")}; any letter case)`;

export const logKind: RecordKind<IngestLogRecord> = {
  name: "logs",
  table: "api_logs",
  columns: LOG_COLUMNS,
  schema: IngestLogRecordSchema,
  build(record, common, problems) {
    const before = problems.length;
    const level = normaliseLogLevel(record.level);
    if (level === null) problems.push({ path: "/level", message: LEVEL_MESSAGE });
    const attributes = readAttributes(record.attributes, problems);
    const traceId = readHexId(record.trace_id, 32, "trace_id", problems);
    const spanId = readHexId(record.span_id, 16, "span_id", problems);
    const endpointPath = record.endpoint_path ?? "";
    if (endpointPath !== "" && !endpointPath.startsWith("/")) {
      problems.push({ path: "/endpoint_path", message: 'must start with "/"' });
    }
    if (problems.length > before) return null;

    return {
      endpoint: null,
      values: [
        common.id,
        common.projectId,
        common.app.id,
        common.timestamp,
        common.environment,
        level,
        cutUtf8(record.message, INGEST_LIMITS.messageBytes),
        cutChars(record.logger_name ?? "", INGEST_LIMITS.labelLength),
        cutUtf8(record.payload ?? "", INGEST_LIMITS.payloadBytes),
        attributes,
        traceId,
        spanId,
        record.endpoint_method?.toUpperCase() ?? "",
        endpointPath,
        endpointPath === "" ? "" : deriveRouteTemplate(endpointPath),
        record.status_code ?? 0,
        cutChars(record.consumer_id ?? "", INGEST_LIMITS.labelLength),
      ],
    };
  },
};

/** Attribute values as text (`3`, `true`, never "" for 0/false); bad keys or values reject. */
function readAttributes(
  attributes: Readonly<Record<string, string | number | boolean>> | undefined,
  problems: RecordProblem[],
): Record<string, string> {
  if (attributes === undefined) return NO_ATTRIBUTES;
  const entries = Object.entries(attributes);
  if (entries.length > INGEST_LIMITS.attributeCount) {
    problems.push({
      path: "/attributes",
      message: `must have at most ${INGEST_LIMITS.attributeCount} keys`,
    });
    return {};
  }
  const out: Array<[string, string]> = [];
  for (const [key, value] of entries) {
    if (key === "" || key.length > INGEST_LIMITS.attributeKeyLength) {
      problems.push({
        path: `/attributes/${escapePointer(key)}`,
        message: `keys must be 1–${INGEST_LIMITS.attributeKeyLength} characters`,
      });
    } else if (typeof value === "number" && !Number.isFinite(value)) {
      problems.push({ path: `/attributes/${escapePointer(key)}`, message: "must be a finite number" });
    } else {
      out.push([
        key,
        typeof value === "string" ? cutChars(value, INGEST_LIMITS.attributeValueLength) : String(value),
      ]);
    }
  }
  return Object.fromEntries(out);
}
