// Ingest: authenticates API keys, runs each batch through the pipeline, hands its rows to the
// table's buffered writer and answers once they are stored; Idempotency-Key retries get the
// first answer again. Endpoints and environments are registered only after the rows are stored.
// Each batch is admitted first against its project's and key's rates (ingest.admission.ts).
// Requests, logs and spans share every step; only their record kind differs.
import { INGEST_LIMITS, type IngestResult } from "@sightline/contracts";
import type { Logger } from "pino";
import type { Clock } from "../../clock.js";
import { AppError } from "../../errors.js";
import {
  createEventsWriter,
  type EventsExecutor,
  EventsStoreError,
  type EventsTable,
  type EventsWriter,
  TenantOverShareError,
  WriterClosedError,
  WriterOverloadedError,
  type WriterStats,
} from "../../stores/events/index.js";
import type {
  IdempotencyScope,
  IngestIdempotencyRepo,
} from "../../stores/metadata/repos/ingest-idempotency.repo.js";
import type { IngestDirectory, KeyPrincipal } from "./directory.js";
import { type AdmissionLimits, createIngestAdmission } from "./ingest.admission.js";
import { createIdempotencyGate, type PreparedAttempt, type StoredAnswer } from "./ingest.idempotency.js";
import {
  type BatchContext,
  type PreparedBatch,
  prepareBatchInSlices,
  preparePlacedBatchInSlices,
} from "./ingest.pipeline.js";
import { storedRowIds } from "../../stores/events/queries/ingest/stored-rows.js";
import { logKind } from "./logs.records.js";
import type { PlacedInput, RecordKind, RecordKindName, RowKind } from "./records.js";
import { requestKind } from "./requests.records.js";
import { createResendGuard, RESEND_MEMORY_MS } from "./resend-guard.js";
import { spanKind } from "./spans.records.js";
import { keptDays } from "../retention/index.js";

export interface IngestLimits {
  /** Records per batch; more is refused whole (413). */
  readonly maxBatch: number;
  readonly requestsRetentionDays: number;
  readonly logsRetentionDays: number;
  readonly spansRetentionDays: number;
  /** ROLLUPS_RETENTION_DAYS: the most a project's request rows may ask their rollups to keep. */
  readonly rollupsRetentionDays: number;
}

export interface WriterSettings {
  readonly flushRows: number;
  readonly flushIntervalMs: number;
  readonly maxPendingRows: number;
  /** The fraction (0–1] of the pending rows one project may hold (INGEST_PROJECT_PENDING_SHARE). */
  readonly projectPendingShare: number;
}

export interface IngestServiceOptions {
  readonly directory: IngestDirectory;
  readonly events: EventsExecutor;
  readonly idempotencyRepo: IngestIdempotencyRepo;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly limits: IngestLimits;
  readonly writer: WriterSettings;
  readonly admission: AdmissionLimits;
}

export interface BatchInput {
  readonly principal: KeyPrincipal;
  readonly records: readonly unknown[];
  /** The Idempotency-Key header and the SHA-256 of the decompressed body, when a key was sent. */
  readonly idempotency?: { readonly key: string; readonly bodyHash: string } | undefined;
  /** True when the caller already admitted these records (`admit`, once per OTLP export). */
  readonly admitted?: boolean;
}

export interface BatchOutcome {
  readonly result: IngestResult;
  /** True when this is the remembered answer of an earlier request with the same key. */
  readonly replayed: boolean;
}

export interface IngestService {
  /** The key's principal; 401 when it is missing, unknown or revoked. */
  authenticate(rawKey: string | undefined): Promise<KeyPrincipal>;
  /** 429 (`rate_limited`, answered after a second) before a body is read when the key's project
   *  or the key is over its ingest rate; the accept methods check again with the batch's size. */
  screen(principal: KeyPrincipal): Promise<void>;
  /** Charges `records` to the project's and key's rates, or 429: for callers of acceptPlaced,
   *  once per request before any of it is stored (the accept methods for posted batches admit
   *  themselves). */
  admit(principal: KeyPrincipal, records: number): void;
  acceptRequests(input: BatchInput): Promise<BatchOutcome>;
  acceptLogs(input: BatchInput): Promise<BatchOutcome>;
  /**
   * Stores a batch of spans in the APILens SDK's span shape (`IngestSpanRecord`): validated one
   * by one, stored through api_spans' group-commit writer, answered once stored. The same
   * limits, partial acceptance and idempotency as requests; OTLP receivers call it too.
   */
  acceptSpans(input: BatchInput): Promise<BatchOutcome>;
  /**
   * Stores inputs the server built itself (an OTLP export's spans) as rows of `kind`'s table:
   * placed already, so no schema pass; the same limits, checks, writer and answers as a posted
   * batch of that table. No Idempotency-Key: OTLP has none. Not admitted here: the caller
   * admits its whole request first (`admit`).
   */
  acceptPlaced<I extends PlacedInput, Column extends string>(
    principal: KeyPrincipal,
    kind: RowKind<I, Column>,
    inputs: readonly I[],
  ): Promise<BatchOutcome>;
  stats(): { readonly requests: WriterStats; readonly logs: WriterStats; readonly spans: WriterStats };
  /** Stores everything still waiting, then refuses new batches. */
  close(): Promise<void>;
}

/** Bytes per insert beyond which a flush starts early: keeps one insert near 50–100 ms. */
const FLUSH_BYTES = 16 * 1024 * 1024;
/** Bytes waiting per table beyond which batches are refused: bounds memory with big payloads. */
const MAX_PENDING_BYTES = 128 * 1024 * 1024;
const BAD_KEY = "The X-API-Key header is missing, or the key is unknown or revoked.";

export function createIngestService(options: IngestServiceOptions): IngestService {
  const { directory, events, clock, logger, limits } = options;
  const writerFor = (kind: { table: EventsTable }): EventsWriter =>
    createEventsWriter({
      executor: events,
      table: kind.table,
      flushRows: options.writer.flushRows,
      flushBytes: FLUSH_BYTES,
      flushIntervalMs: options.writer.flushIntervalMs,
      maxPendingRows: options.writer.maxPendingRows,
      maxPendingBytes: MAX_PENDING_BYTES,
      tenantShare: options.writer.projectPendingShare,
      logger,
    });
  const kinds = {
    requests: {
      kind: requestKind,
      writer: writerFor(requestKind),
      retentionDays: limits.requestsRetentionDays,
    },
    logs: { kind: logKind, writer: writerFor(logKind), retentionDays: limits.logsRetentionDays },
    spans: { kind: spanKind, writer: writerFor(spanKind), retentionDays: limits.spansRetentionDays },
  };
  const admission = createIngestAdmission(options.admission, clock);
  const idempotency = createIdempotencyGate({
    repo: options.idempotencyRepo,
    clock,
    logger,
    exclusive: events.engine === "chdb",
    probeStored: async (scope, probe) =>
      (await storedRowIds(events, tableOf(scope), scope.projectId, [probe])).has(probe.id),
  });

  function tableOf(scope: IdempotencyScope): string {
    const entry = Object.hasOwn(kinds, scope.kind) ? kinds[scope.kind as RecordKindName] : kinds.requests;
    return entry.kind.table.name;
  }

  type Entry = (typeof kinds)[RecordKindName];
  /** Resendable batches being stored, by table, project and first row id (see storeOnce). */
  const storing = new Map<string, Promise<void>>();
  const resends = createResendGuard(
    events,
    events.engine === "chdb" ? clock.now().getTime() + RESEND_MEMORY_MS : Number.POSITIVE_INFINITY,
  );

  /** `resolvesApps`: whether the records name their apps, so the project's live apps are needed.
   *  `resendable`: whether the rows' ids derive from the inputs, so a resent batch is stored once. */
  async function accept(
    entry: Entry,
    input: BatchInput,
    resolvesApps: boolean,
    prepareRows: (context: BatchContext) => Promise<PreparedBatch>,
    resendable = false,
  ): Promise<BatchOutcome> {
    const { principal, records } = input;
    if (records.length > limits.maxBatch) {
      throw new AppError(
        "payload_too_large",
        `A batch holds at most ${limits.maxBatch} records; this one has ${records.length}. Nothing was stored.`,
      );
    }
    // Before the empty case: admission takes back the reservation the request's screen made.
    if (input.admitted !== true) admission.admit(principal, records.length);
    if (records.length === 0) return { result: { accepted: 0, rejected: 0, errors: [] }, replayed: false };

    const prepare = async (): Promise<PreparedAttempt> => {
      const apps =
        resolvesApps && principal.app === null ? await directory.listLiveApps(principal.project.id) : [];
      const batch = await prepareRows({
        principal,
        apps,
        nowMs: clock.now().getTime(),
        retentionDays: keptDays(principal.project.retention?.[entry.kind.name], entry.retentionDays),
        rollupDays: keptDays(principal.project.retention?.rollups, limits.rollupsRetentionDays),
        insertFormat: events.insertFormat,
      });
      return {
        answer: {
          status: batch.accepted > 0 ? 200 : 422,
          accepted: batch.accepted,
          rejected: batch.rejected,
          errors: batch.errors,
          ...(batch.ignoredFields.length > 0 ? { ignored_fields: batch.ignoredFields } : {}),
          ...(batch.refusedWhole ? { refused_whole: true } : {}),
        },
        probe: batch.probe,
        commit: () =>
          resendable
            ? storeOnce(entry, principal.project.id, batch)
            : store(entry.writer, entry.kind.name, principal.project.id, batch),
      };
    };

    if (input.idempotency === undefined) {
      const attempt = await prepare();
      if (attempt.probe !== null) await attempt.commit();
      return answerWith(attempt.answer, false);
    }
    const scope = { projectId: principal.project.id, kind: entry.kind.name, key: input.idempotency.key };
    const outcome = await idempotency.run(scope, input.idempotency.bodyHash, prepare);
    return answerWith(outcome.answer, outcome.replayed);
  }

  /** A posted batch: the kind's records, read from the wire. */
  function acceptRecords<R, Column extends string>(
    entry: Entry & { kind: RecordKind<R, Column> },
    input: BatchInput,
  ): Promise<BatchOutcome> {
    return accept(entry, input, true, (context) => prepareBatchInSlices(entry.kind, input.records, context));
  }

  /** Writes the batch's rows (whole, in one insert), then registers what it discovered. */
  async function store(
    writer: EventsWriter,
    member: RecordKindName,
    projectId: string,
    batch: PreparedBatch,
  ): Promise<void> {
    if (batch.chunk === null) return;
    try {
      await writer.write(batch.chunk, projectId);
    } catch (error) {
      throw storeFailure(error, member, batch);
    }
    await discover(batch);
  }

  /**
   * Stores a batch whose row ids derive from its inputs unless it is stored already: an exporter
   * resends a batch whose answer it lost (a crash, a dropped connection), and the batch's first
   * row tells (resend-guard.ts), since batches are stored whole or not at all. A resend racing its
   * original in this process waits for it, then looks.
   */
  async function storeOnce(entry: Entry, projectId: string, batch: PreparedBatch): Promise<void> {
    const { probe } = batch;
    if (probe === null) return;
    const table = entry.kind.table.name;
    const key = `${table}/${projectId}/${probe.id}`;
    for (let earlier = storing.get(key); earlier !== undefined; earlier = storing.get(key)) {
      await earlier.catch(() => undefined);
    }
    const attempt = (async () => {
      if (await resends.stored(table, projectId, probe, clock.now().getTime())) return;
      await store(entry.writer, entry.kind.name, projectId, batch);
      resends.remember(table, projectId, probe, clock.now().getTime());
    })();
    storing.set(key, attempt);
    try {
      await attempt;
    } finally {
      if (storing.get(key) === attempt) storing.delete(key);
    }
  }

  /** Best effort after the rows are stored: a failure here loses no record, and the next
   *  batch naming the same endpoint registers it. */
  async function discover(batch: PreparedBatch): Promise<void> {
    await Promise.all(
      batch.discoveries.map(async (found) => {
        try {
          await directory.ensureEnvironments(found.appId, found.environments);
          if (found.endpoints.length > 0) await directory.ensureEndpoints(found.appId, found.endpoints);
        } catch (error) {
          logger.warn({ err: error, app_id: found.appId }, "could not register discovered endpoints");
        }
      }),
    );
  }

  return {
    async authenticate(rawKey) {
      const key = rawKey?.trim() ?? "";
      const principal = key === "" ? null : await directory.authenticateKey(key);
      if (principal === null) throw new AppError("authentication_error", BAD_KEY);
      return principal;
    },
    screen: (principal) => admission.screen(principal),
    admit: (principal, records) => admission.admit(principal, records),
    acceptRequests: (input) => acceptRecords(kinds.requests, input),
    acceptLogs: (input) => acceptRecords(kinds.logs, input),
    acceptSpans: (input) => acceptRecords(kinds.spans, input),
    acceptPlaced(principal, kind, inputs) {
      const entry = kinds[kind.name];
      // The writer is chosen by name: a kind must write the table that name's writer writes.
      if (kind.table !== entry.kind.table) {
        throw new Error(`row kind "${kind.name}" writes ${kind.table.name}, not ${entry.kind.table.name}`);
      }
      return accept(
        entry,
        { principal, records: inputs, admitted: true },
        false,
        (context) => preparePlacedBatchInSlices(kind, inputs, context),
        kind.rowId !== undefined,
      );
    },
    stats: () => ({
      requests: kinds.requests.writer.stats(),
      logs: kinds.logs.writer.stats(),
      spans: kinds.spans.writer.stats(),
    }),
    async close() {
      await Promise.all([
        kinds.requests.writer.close(),
        kinds.logs.writer.close(),
        kinds.spans.writer.close(),
      ]);
    },
  };
}

/** The answer as the route gives it: 200 with the counts, or 422 when nothing was accepted. */
function answerWith(answer: StoredAnswer, replayed: boolean): BatchOutcome {
  if (answer.status === 422) {
    throw new AppError(
      "validation_error",
      answer.refused_whole === true
        ? `More than ${INGEST_LIMITS.invalidRecordsPerBatch} of the ${answer.rejected} records are invalid, so ` +
            "the batch was refused whole and nothing was stored; the first problems are listed."
        : `All ${answer.rejected} record${answer.rejected === 1 ? " was" : "s were"} rejected; nothing was stored.`,
      {
        errors: answer.errors,
        ...(answer.ignored_fields === undefined
          ? {}
          : { extensions: { ignored_fields: answer.ignored_fields } }),
        ...(replayed ? { headers: { "idempotent-replayed": "true" } } : {}),
      },
    );
  }
  return {
    result: {
      accepted: answer.accepted,
      rejected: answer.rejected,
      errors: [...answer.errors],
      ...(answer.ignored_fields === undefined ? {} : { ignored_fields: [...answer.ignored_fields] }),
    },
    replayed,
  };
}

/**
 * Why the store did not take the batch, as the client should hear it: 422 when the engine refused
 * the batch's own rows (the first line, well-formed input and per-record checks, should make that
 * impossible; retrying will not help), 429 + Retry-After when the project holds its share of the
 * writer, 503 + Retry-After for capacity, shutdown and outages.
 * Nothing of the batch was stored either way.
 */
function storeFailure(error: unknown, member: string, batch: PreparedBatch): unknown {
  if (error instanceof EventsStoreError && error.kind === "rejected") {
    const reason = error.engineError ?? "an engine error";
    const index = error.failedAtRow === undefined ? undefined : batch.rowRecords[error.failedAtRow - 1];
    const refused =
      index === undefined
        ? []
        : [{ index, pointer: `/${member}/${index}`, message: `was refused by the events store (${reason})` }];
    return new AppError(
      "validation_error",
      `The events store refused ${index === undefined ? "this batch" : `record ${index}`} (${reason}); ` +
        "nothing of the batch was stored, and resending it unchanged will fail again.",
      { errors: [...batch.errors, ...refused].slice(0, INGEST_LIMITS.listedErrors), cause: error },
    );
  }
  if (error instanceof TenantOverShareError) {
    return new AppError(
      "rate_limited",
      "This project holds its share of the rows waiting to be stored (INGEST_PROJECT_PENDING_SHARE); " +
        "nothing from this batch was stored. Retry after the Retry-After delay.",
      { headers: { "retry-after": "1" }, cause: error },
    );
  }
  if (error instanceof WriterOverloadedError) {
    return new AppError(
      "service_unavailable",
      "Ingest is at capacity; nothing from this batch was stored. Retry after the Retry-After delay.",
      { headers: { "retry-after": "1" }, cause: error },
    );
  }
  if (error instanceof WriterClosedError) {
    return new AppError(
      "service_unavailable",
      "The server is shutting down; nothing from this batch was stored. Retry shortly.",
      { headers: { "retry-after": "5" }, cause: error },
    );
  }
  if (error instanceof EventsStoreError && error.kind === "unavailable") {
    return new AppError(
      "service_unavailable",
      "The events store is unavailable; nothing from this batch was stored. Retry after the Retry-After delay.",
      { headers: { "retry-after": "5" }, cause: error },
    );
  }
  return error;
}
