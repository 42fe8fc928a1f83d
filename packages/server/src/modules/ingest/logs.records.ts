// The log-record kind: how one record of POST /ingest/logs becomes a row of api_logs (level
// aliases, attribute rules, the endpoint it mentions reduced to a route template; the APILens
// SDKs' "" and 0 for "no endpoint" and "no status").
import {
  INGEST_LIMITS,
  type IngestLogRecord,
  IngestLogRecordSchema,
  LOG_LEVEL_ALIASES,
  LOG_LEVELS,
  normaliseLogLevel,
} from "@sightline/contracts";
import { API_LOGS, type ApiLogsColumn } from "../../stores/events/index.js";
import { declaredFields, readAttributes, readHexId, type RecordKind } from "./records.js";
import { errorFingerprint } from "../../lib/error-fingerprint.js";
import { deriveRouteTemplate } from "./route-template.js";
import { cutChars, cutUtf8 } from "./text.js";

const LEVEL_MESSAGE =
  `must be one of ${LOG_LEVELS.join(", ")} ` +
  `(or ${Object.keys(LOG_LEVEL_ALIASES).join(", ")}; any letter case)`;

export const logKind: RecordKind<IngestLogRecord, ApiLogsColumn> = {
  name: "logs",
  table: API_LOGS,
  schema: IngestLogRecordSchema,
  fields: declaredFields(IngestLogRecordSchema),
  build(record, problems) {
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
    const statusCode = record.status_code ?? 0;
    if (statusCode !== 0 && statusCode < 100) {
      problems.push({ path: "/status_code", message: "must be 100–599, or 0 for none" });
    }
    if (problems.length > before) return null;
    const message = cutUtf8(record.message, INGEST_LIMITS.messageBytes);
    const payload = cutUtf8(record.payload ?? "", INGEST_LIMITS.payloadBytes);

    return {
      endpoint: null,
      row: {
        level,
        message,
        logger_name: cutChars(record.logger_name ?? "", INGEST_LIMITS.labelLength),
        payload,
        attributes,
        trace_id: traceId,
        span_id: spanId,
        endpoint_method: record.endpoint_method?.toUpperCase() ?? "",
        endpoint_path: endpointPath,
        endpoint_route: endpointPath === "" ? "" : deriveRouteTemplate(endpointPath),
        status_code: statusCode,
        consumer_id: cutChars(record.consumer_id ?? "", INGEST_LIMITS.labelLength),
        consumer_name: cutChars(record.consumer_name ?? "", INGEST_LIMITS.labelLength),
        consumer_group: cutChars(record.consumer_group ?? "", INGEST_LIMITS.labelLength),
        fingerprint: errorFingerprint({
          level: level ?? "",
          message,
          payload,
          errorType: attributes["error_type"],
        }),
      },
    };
  },
};
