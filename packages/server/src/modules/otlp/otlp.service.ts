// OpenTelemetry in: turns decoded OTLP exports into Sightline rows and records (span rows, request
// rows of server spans, log records) and stores them through the ingest service, so OTLP data
// meets the same keys, app rules, rates, limits, writers and backpressure as /ingest (an export is
// admitted against its project's and key's rates once, before any of it is stored). Answers with what
// OTLP wants to hear: how many items were rejected and why. Apps are never created here:
// `service.name` must name an app the key may write to.
import { AppError } from "../../errors.js";
import { createPace } from "../../lib/pace.js";
import { slugify } from "../../lib/slugs.js";
import type { AppRef, IngestDirectory, IngestService, KeyPrincipal } from "../ingest/index.js";
import {
  type Destination,
  logRecordOf,
  otlpRequestRows,
  otlpSpanRows,
  type PlacedSpan,
  placeSpan,
  resourceIdentity,
  type ResourceIdentity,
  servesHttpRequest,
} from "./otlp.mapping.js";
import { decodeLogs, decodeTraces } from "./otlp.decode.js";
import type { OtlpEncoding, ResourceGroup } from "./otlp.model.js";

export interface OtlpServiceOptions {
  readonly ingest: IngestService;
  readonly directory: Pick<IngestDirectory, "listLiveApps">;
  /** INGEST_MAX_BATCH: an export holding more records is stored in batches of this size. */
  readonly maxBatch: number;
}

/** An export request as it arrived: the decompressed body and its encoding. */
export interface OtlpPayload {
  readonly bytes: Buffer;
  readonly encoding: OtlpEncoding;
}

/** The answer of an export: items not stored, and a message saying why (or warning). */
export interface ExportOutcome {
  readonly rejected: number;
  readonly errorMessage: string;
}

export interface OtlpService {
  /** The key's principal; 401 when it is missing, unknown or revoked. */
  authenticate(rawKey: string | undefined): Promise<KeyPrincipal>;
  /** 429 before the body is read when the key's project or the key is over its ingest rate. */
  screen(principal: KeyPrincipal): Promise<void>;
  /** Decodes an ExportTraceServiceRequest (400 when it is none) and stores what it can. */
  exportTraces(principal: KeyPrincipal, payload: OtlpPayload): Promise<ExportOutcome>;
  /** Decodes an ExportLogsServiceRequest (400 when it is none) and stores what it can. */
  exportLogs(principal: KeyPrincipal, payload: OtlpPayload): Promise<ExportOutcome>;
}

/** A rejected record's problem as ingest reports it. */
interface RecordProblem {
  readonly pointer: string;
  readonly message: string;
}

/** Reasons quoted in `errorMessage`; the counts are complete, the list is not. */
const LISTED_REASONS = 5;
/** Distinct unlisted reasons counted for "and N more"; past it the count stops growing. */
const MAX_COUNTED_REASONS = 100;

export function createOtlpService(options: OtlpServiceOptions): OtlpService {
  const { ingest, directory, maxBatch } = options;

  /** Each resource group's destination, or why its items cannot be stored. */
  async function destinations<T>(
    principal: KeyPrincipal,
    groups: readonly ResourceGroup<T>[],
  ): Promise<Array<Destination | string>> {
    const apps =
      principal.app === null ? await directory.listLiveApps(principal.project.id) : [principal.app];
    return groups.map((group) => {
      const identity = resourceIdentity(group.resource);
      const app = resolveApp(principal, apps, identity);
      return typeof app === "string"
        ? app
        : { app, environment: identity.environment, serviceName: identity.serviceName };
    });
  }

  /** Stores records in batches of at most INGEST_MAX_BATCH; a batch refused whole (every record
   *  invalid) counts as rejected, not as a failed export. Capacity errors (503) propagate. */
  async function store<R>(
    records: readonly R[],
    accept: (records: readonly R[]) => ReturnType<IngestService["acceptRequests"]>,
  ): Promise<{ rejected: number; errors: RecordProblem[] }> {
    let rejected = 0;
    const errors: RecordProblem[] = [];
    for (let start = 0; start < records.length; start += maxBatch) {
      const batch = records.slice(start, start + maxBatch);
      try {
        const { result } = await accept(batch);
        rejected += result.rejected;
        errors.push(...result.errors);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== "validation_error") throw error;
        rejected += batch.length;
        errors.push(...(error.options.errors ?? []));
      }
    }
    return { rejected, errors };
  }

  return {
    authenticate: (rawKey) => ingest.authenticate(rawKey),
    screen: (principal) => ingest.screen(principal),

    async exportTraces(principal, payload) {
      const pace = createPace();
      const data = await decodeTraces(payload.bytes, payload.encoding, pace);
      const targets = await destinations(principal, data);
      const reasons = new Reasons();
      const spans: PlacedSpan[] = [];
      const requests: PlacedSpan[] = [];
      let unrouted = 0;
      for (let g = 0; g < data.length; g++) {
        const group = data[g] as (typeof data)[number];
        const target = targets[g];
        if (target === undefined || typeof target === "string") {
          unrouted += group.items.length;
          if (target !== undefined && group.items.length > 0) reasons.add(target, group.items.length);
          continue;
        }
        for (const span of group.items) {
          const placed = placeSpan(span, target);
          spans.push(placed);
          if (servesHttpRequest(span)) requests.push(placed);
          if (pace.due()) await pace.yield();
        }
      }
      // Even an empty export: admission takes back the reservation its screen made.
      ingest.admit(principal, spans.length);
      // Two tables, two writers: both inserts run at once. A 503 from either fails the export
      // (the exporter retries it), though the other table may have kept its rows (ADR 0012).
      const [storedSpans, storedRequests] = await settledBoth(
        store(spans, (batch) => ingest.acceptPlaced(principal, otlpSpanRows, batch)),
        store(requests, (batch) => ingest.acceptPlaced(principal, otlpRequestRows, batch)),
      );
      for (const error of storedSpans.errors) {
        reasons.add(`a span was rejected: ${fieldOf(error.pointer)} ${error.message}`);
      }
      // The span is kept even when the request record derived from it is not: a warning.
      for (const error of storedRequests.errors) {
        reasons.add(
          `the request record of a SERVER span was rejected: ${fieldOf(error.pointer)} ${error.message}`,
        );
      }
      return reasons.outcome(unrouted + storedSpans.rejected);
    },

    async exportLogs(principal, payload) {
      const pace = createPace();
      const data = await decodeLogs(payload.bytes, payload.encoding, pace);
      const targets = await destinations(principal, data);
      const reasons = new Reasons();
      const records: Exclude<ReturnType<typeof logRecordOf>, string>[] = [];
      let refused = 0;
      for (let g = 0; g < data.length; g++) {
        const group = data[g] as (typeof data)[number];
        const target = targets[g];
        if (target === undefined || typeof target === "string") {
          refused += group.items.length;
          if (target !== undefined && group.items.length > 0) reasons.add(target, group.items.length);
          continue;
        }
        for (const log of group.items) {
          const record = logRecordOf(log, target);
          if (typeof record === "string") {
            refused += 1;
            reasons.add(`a log record ${record}`);
          } else {
            records.push(record);
          }
          if (pace.due()) await pace.yield();
        }
      }
      ingest.admit(principal, records.length);
      const stored = await store(records, (batch) =>
        ingest.acceptLogs({ principal, records: batch, admitted: true }),
      );
      for (const error of stored.errors)
        reasons.add(`a log record was rejected: ${fieldOf(error.pointer)} ${error.message}`);
      return reasons.outcome(refused + stored.rejected);
    },
  };
}

/**
 * The app a resource's telemetry belongs to. A project key: the live app of its project whose
 * id or slug is `service.name` (or whose slug `service.name` slugifies to). An app key: its own
 * app, which `service.name`, when set, must name. Never an app of another project.
 */
function resolveApp(
  principal: KeyPrincipal,
  apps: readonly AppRef[],
  identity: ResourceIdentity,
): AppRef | string {
  const name = identity.serviceName;
  if (name === "") {
    if (principal.app !== null) return principal.app;
    return (
      `a resource has no service.name: set OTEL_SERVICE_NAME to the slug of an app of project ` +
      `"${principal.project.slug}"`
    );
  }
  const wanted = name.toLowerCase();
  const slug = slugify(name, "");
  const app = apps.find(
    (candidate) => candidate.id === wanted || candidate.slug === wanted || candidate.slug === slug,
  );
  if (app !== undefined) return app;
  if (principal.app !== null) {
    return `service.name "${name}" is not app "${principal.app.slug}", the only app this API key may write to`;
  }
  return (
    `service.name "${name}" names no app of project "${principal.project.slug}"; apps are not created ` +
    `from telemetry: create an app with slug "${slug || name}" first`
  );
}

/** Both results once both have settled, or the first failure once both have settled: an export
 *  is answered only when neither table is still storing its rows, so its resend never races them. */
async function settledBoth<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [first, second] = await Promise.allSettled([a, b]);
  if (first.status === "rejected") throw first.reason;
  if (second.status === "rejected") throw second.reason;
  return [first.value, second.value];
}

/** `/requests/3/status_code` -> `status_code`: the field, without the synthetic batch path. */
function fieldOf(pointer: string): string {
  return pointer.split("/").slice(3).join("/") || "the record";
}

/** Distinct reasons in the order first seen, counted. Only the listed ones are kept: an export
 *  of many bad items costs a count, not an object per item. */
class Reasons {
  private readonly seen = new Map<string, number>();
  /** Distinct reasons past the listed ones (each counted once, however often it recurs). */
  private readonly others = new Set<string>();

  add(reason: string, count = 1): void {
    const known = this.seen.get(reason);
    if (known !== undefined) this.seen.set(reason, known + count);
    else if (this.seen.size < LISTED_REASONS) this.seen.set(reason, count);
    else if (this.others.size < MAX_COUNTED_REASONS) this.others.add(reason);
  }

  outcome(rejected: number): ExportOutcome {
    const listed = [...this.seen].map(([reason, count]) => (count > 1 ? `${reason} (${count}×)` : reason));
    const more = this.others.size;
    return {
      rejected,
      errorMessage: listed.length === 0 ? "" : `${listed.join("; ")}${more > 0 ? `; and ${more} more` : ""}`,
    };
  }
}
