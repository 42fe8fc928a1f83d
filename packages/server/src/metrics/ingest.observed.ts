// Counts ingested records from the outside: wraps the ingest service so every batch's answer
// (accepted, rejected, or refused whole) is counted by kind and reason, leaving the pipeline
// itself unmeasured. Replayed answers (an Idempotency-Key retry) store nothing and count nothing.
import { AppError } from "../errors.js";
import type { BatchOutcome, IngestService } from "../modules/ingest/index.js";
import { EventsStoreError, WriterOverloadedError } from "../stores/events/index.js";
import type { Metrics, RejectReason } from "./metrics.js";

export function observeIngest(service: IngestService, metrics: Metrics): IngestService {
  const counted = (kind: string, records: number, call: () => Promise<BatchOutcome>): Promise<BatchOutcome> =>
    call().then(
      (outcome) => {
        if (!outcome.replayed) {
          metrics.ingestAccepted(kind, outcome.result.accepted);
          metrics.ingestRejected(kind, "invalid", outcome.result.rejected);
        }
        return outcome;
      },
      (error: unknown) => {
        const replayed =
          error instanceof AppError && error.options.headers?.["idempotent-replayed"] === "true";
        if (!replayed) metrics.ingestRejected(kind, rejectReasonOf(error), records);
        throw error;
      },
    );
  return {
    ...service,
    acceptRequests: (input) => counted("requests", input.records.length, () => service.acceptRequests(input)),
    acceptLogs: (input) => counted("logs", input.records.length, () => service.acceptLogs(input)),
    acceptSpans: (input) => counted("spans", input.records.length, () => service.acceptSpans(input)),
    acceptPlaced: (principal, kind, inputs) =>
      counted(kind.name, inputs.length, () => service.acceptPlaced(principal, kind, inputs)),
  };
}

/** Why a batch was refused whole; every one of its records counts under this reason. */
export function rejectReasonOf(error: unknown): RejectReason {
  if (!(error instanceof AppError)) return "other";
  // Any 429: rate limits and ingest quotas alike, whatever their code.
  if (error.status === 429) return "rate_limited";
  switch (error.code) {
    case "validation_error":
      return error.cause instanceof EventsStoreError ? "store_refused" : "invalid";
    case "payload_too_large":
      return "too_large";
    case "service_unavailable":
      return error.cause instanceof WriterOverloadedError ? "overloaded" : "unavailable";
    default:
      return "other";
  }
}
