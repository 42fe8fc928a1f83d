// The ingest pipeline for one batch, as small named steps: note fields the kind does not know,
// validate each record against its contract schema, settle the fields every kind shares
// (project, app, time, environment), build the kind's row, serialise it in the table's column
// order. Inputs the server built itself (OTLP) join at the settling step. Pure: no store is
// touched here; a long batch yields to the event loop between slices (lib/pace.ts), and a batch
// with more than INGEST_LIMITS.invalidRecordsPerBatch invalid records is refused whole at once.
import { INGEST_LIMITS, type IngestRecordError } from "@sightline/contracts";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { messageOf, pointerOf } from "../../http/validation.js";
import { createPace, type Pace } from "../../lib/pace.js";
import { createRowEncoder, type InsertFormat, type RowEncoder } from "../../stores/events/row-encoding.js";
import { rawPartition } from "../../stores/events/tables/index.js";
import type { RowChunk } from "../../stores/events/writer.js";
import { normaliseEnvironmentName } from "../environments/index.js";
import type { AppRef, DiscoveredEndpoint, KeyPrincipal } from "./directory.js";
import type {
  CommonColumn,
  CommonFields,
  PlacedInput,
  RecordKind,
  RecordProblem,
  RowKind,
} from "./records.js";
import { uuidV7At } from "./row-ids.js";
import { parseTimestamp } from "./timestamps.js";

/** What the batch teaches the resource model about one app. */
export interface AppDiscovery {
  readonly appId: string;
  readonly environments: readonly string[];
  readonly endpoints: readonly DiscoveredEndpoint[];
}

/** The first stored row of a batch: finding it proves the whole batch was stored. */
export interface BatchProbe {
  readonly id: string;
  readonly timestampMs: number;
}

export interface PreparedBatch {
  /** More than INGEST_LIMITS.invalidRecordsPerBatch records were invalid: nothing is stored,
   *  `rejected` counts the whole batch and `errors` lists the problems found until then. */
  readonly refusedWhole: boolean;
  readonly accepted: number;
  readonly rejected: number;
  readonly errors: readonly IngestRecordError[];
  /** Record fields the kind does not know, sorted; ignored, and named in the answer. */
  readonly ignoredFields: readonly string[];
  readonly chunk: RowChunk | null;
  /** The batch index of the record behind each row of `chunk`, in row order. */
  readonly rowRecords: readonly number[];
  readonly discoveries: readonly AppDiscovery[];
  readonly probe: BatchProbe | null;
}

export interface BatchContext {
  readonly principal: KeyPrincipal;
  /** Live apps of the principal's project; ignored for app keys, which name their one app. */
  readonly apps: readonly AppRef[];
  readonly nowMs: number;
  /** The project's retention for the kind: the oldest time accepted, and each row's
   *  `retention_days` (docs/adr/0023-partitions-and-retention.md). */
  readonly retentionDays: number;
  /** The project's rollup retention: each request row's `rollup_days`, carried into the rollups
   *  by their views. Absent: 0, the server's ROLLUPS_RETENTION_DAYS (as rows stored before it). */
  readonly rollupDays?: number;
  /** The body format of the events store's inserts (its executor's `insertFormat`; default
   *  JSONCompactEachRow). */
  readonly insertFormat?: InsertFormat;
}

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
const validators = new WeakMap<object, ValidateFunction>();

/** One batch's steps, record by record: run at once (`prepareBatch`, for tests and benches) or
 *  in paced slices (`prepareBatchInSlices`, the service's way, which never holds the loop). */
interface BatchRun {
  readonly size: number;
  /** Runs every step over record `index`. */
  step(index: number): void;
  /** True once the batch is refused whole: the records left need not be read. */
  readonly stopped: boolean;
  finish(): PreparedBatch;
}

/** Runs every step over the records of one batch, as posted by a client, at once. */
export function prepareBatch<R, Column extends string>(
  kind: RecordKind<R, Column>,
  records: readonly unknown[],
  context: BatchContext,
): PreparedBatch {
  return runAtOnce(postedRun(kind, records, context));
}

/** `prepareBatch`, yielding to the event loop whenever a slice has used its budget. */
export function prepareBatchInSlices<R, Column extends string>(
  kind: RecordKind<R, Column>,
  records: readonly unknown[],
  context: BatchContext,
  pace: Pace = createPace(),
): Promise<PreparedBatch> {
  return runInSlices(postedRun(kind, records, context), pace);
}

/**
 * Runs the steps after validation over inputs the server built itself (an OTLP export's spans):
 * their app and time are known, their types hold by construction. Times, environments and each
 * kind's own rules are checked as for posted records; the answer is the same.
 */
export function preparePlacedBatch<I extends PlacedInput, Column extends string>(
  kind: RowKind<I, Column>,
  inputs: readonly I[],
  context: BatchContext,
): PreparedBatch {
  return runAtOnce(placedRun(kind, inputs, context));
}

/** `preparePlacedBatch`, yielding to the event loop whenever a slice has used its budget. */
export function preparePlacedBatchInSlices<I extends PlacedInput, Column extends string>(
  kind: RowKind<I, Column>,
  inputs: readonly I[],
  context: BatchContext,
  pace: Pace = createPace(),
): Promise<PreparedBatch> {
  return runInSlices(placedRun(kind, inputs, context), pace);
}

function runAtOnce(run: BatchRun): PreparedBatch {
  for (let index = 0; index < run.size && !run.stopped; index++) run.step(index);
  return run.finish();
}

/** Records between looks at the clock: a record costs 5–20 µs, so a look per 16 keeps the
 *  slices near their budget at a fraction of the clock's cost. */
const RECORDS_PER_LOOK = 16;

async function runInSlices(run: BatchRun, pace: Pace): Promise<PreparedBatch> {
  for (let index = 0; index < run.size && !run.stopped; index++) {
    run.step(index);
    if (index % RECORDS_PER_LOOK === RECORDS_PER_LOOK - 1 && pace.due()) await pace.yield();
  }
  return run.finish();
}

function postedRun<R, Column extends string>(
  kind: RecordKind<R, Column>,
  records: readonly unknown[],
  context: BatchContext,
): BatchRun {
  const validate = validatorFor(kind);
  const resolveApp = appResolver(context);
  const rows = new BatchRows(kind, context, records.length);
  const ignored = new Set<string>();
  const { problems } = rows;
  return {
    size: records.length,
    get stopped() {
      return rows.refusedWhole;
    },
    step(index) {
      const record = records[index];
      problems.length = 0;
      noteUnknownFields(record, kind.fields, ignored);
      if (!validate(record)) {
        for (const problem of schemaProblems(validate.errors ?? [])) problems.push(problem);
        rows.reject(index);
        return;
      }
      const sent = record as CommonInput & R;
      const slug = sent.project_slug?.trim() ?? "";
      if (slug !== "" && slug.toLowerCase() !== context.principal.project.slug) {
        problems.push({
          path: "/project_slug",
          message: `must be "${context.principal.project.slug}", the API key's project`,
        });
      }
      const app = resolveApp(sent.app_id);
      if (typeof app === "string") problems.push({ path: "/app_id", message: app });
      rows.add(index, sent, app, parseTimestamp(sent.timestamp), sent.environment);
    },
    finish: () => rows.prepared([...ignored].sort().slice(0, INGEST_LIMITS.listedIgnoredFields)),
  };
}

function placedRun<I extends PlacedInput, Column extends string>(
  kind: RowKind<I, Column>,
  inputs: readonly I[],
  context: BatchContext,
): BatchRun {
  const rows = new BatchRows(kind, context, inputs.length);
  return {
    size: inputs.length,
    get stopped() {
      return rows.refusedWhole;
    },
    step(index) {
      const input = inputs[index] as I;
      rows.problems.length = 0;
      rows.add(index, input, input.app, input.timestampMs, input.environment);
    },
    finish: () => rows.prepared([]),
  };
}

/**
 * The rows of one batch as they are built: serialised in the table's column order, with the
 * problems of the records that yield none, the first row (the batch's probe) and what the rows
 * teach the resource model.
 */
class BatchRows<I, Column extends string> {
  /** The current record's problems: one list reused for every record (most have none, and
   *  allocation is GC time on the hot path). */
  readonly problems: RecordProblem[] = [];
  private readonly columns: readonly Column[];
  /** Per column, the common field it holds (undefined: the kind's row has it). */
  private readonly shared: ReadonlyArray<CommonColumn | undefined>;
  /** One value array reused for every row, for the same reason. */
  private readonly values: unknown[];
  private readonly oldestMs: number;
  private readonly newestMs: number;
  /** The batch's arrival day: with its retention, the one partition all its rows go to. */
  private readonly storedOn: string;
  private readonly encoder: RowEncoder;
  private readonly rowRecords: number[] = [];
  private readonly errors: IngestRecordError[] = [];
  private readonly discovery: DiscoveryMap = new Map();
  private rejected = 0;
  private probe: BatchProbe | null = null;

  constructor(
    private readonly kind: RowKind<I, Column>,
    private readonly context: BatchContext,
    private readonly size: number,
  ) {
    this.columns = kind.table.columnNames;
    this.shared = this.columns.map((column) =>
      (COMMON_COLUMNS as readonly string[]).includes(column) ? (column as CommonColumn) : undefined,
    );
    this.values = new Array(this.columns.length);
    this.oldestMs = context.nowMs - context.retentionDays * 86_400_000;
    this.newestMs = context.nowMs + INGEST_LIMITS.futureToleranceMs;
    this.storedOn = new Date(context.nowMs).toISOString().slice(0, 10);
    this.encoder = createRowEncoder(kind.table, context.insertFormat ?? "JSONCompactEachRow");
  }

  /** Settles the fields every kind shares (problems already noted for this record count too),
   *  builds the kind's row and keeps it, or rejects the record with its problems. */
  add(
    index: number,
    input: I,
    app: AppRef | string,
    timestampMs: number | null,
    sentEnvironment: string | undefined,
  ): void {
    const common = this.settle(input, app, timestampMs, sentEnvironment);
    const row = common === null ? null : this.kind.build(input, this.problems);
    if (common === null || row === null) {
      this.reject(index);
      return;
    }
    const { columns, values, shared } = this;
    for (let column = 0; column < columns.length; column++) {
      const field = shared[column];
      values[column] =
        field === undefined
          ? row.row[columns[column] as Exclude<Column, CommonColumn>]
          : commonValue(common, field);
    }
    try {
      this.encoder.add(values);
    } catch (error) {
      // The checks above let only encodable values through: this is a bug of ours, but it is
      // one record's, answered as such rather than failing the batch.
      this.problems.push({ path: "", message: `cannot be stored: ${(error as Error).message}` });
      this.reject(index);
      return;
    }
    this.rowRecords.push(index);
    this.probe ??= { id: common.id, timestampMs: common.timestampMs };
    noteDiscovery(this.discovery, common, row.endpoint);
  }

  /** Too many invalid records: the batch is refused whole and its rest need not be read. */
  get refusedWhole(): boolean {
    return this.rejected > INGEST_LIMITS.invalidRecordsPerBatch;
  }

  /** Counts the record as rejected and lists its problems (up to the listed maximum). */
  reject(index: number): void {
    this.rejected += 1;
    for (const problem of this.problems) {
      if (this.errors.length >= INGEST_LIMITS.listedErrors) break;
      this.errors.push({
        index,
        pointer: `/${this.kind.name}/${index}${problem.path}`,
        message: problem.message,
      });
    }
  }

  prepared(ignoredFields: readonly string[]): PreparedBatch {
    if (this.refusedWhole) {
      return {
        refusedWhole: true,
        accepted: 0,
        rejected: this.size,
        errors: this.errors,
        ignoredFields,
        chunk: null,
        rowRecords: [],
        discoveries: [],
        probe: null,
      };
    }
    const rowCount = this.encoder.rowCount;
    return {
      refusedWhole: false,
      accepted: rowCount,
      rejected: this.rejected,
      errors: this.errors,
      ignoredFields,
      chunk:
        rowCount === 0
          ? null
          : {
              body: this.encoder.finish(),
              format: this.encoder.format,
              rowCount,
              partition: rawPartition(this.storedOn, this.context.retentionDays),
            },
      rowRecords: this.rowRecords,
      discoveries: [...this.discovery].map(([appId, found]) => ({
        appId,
        environments: [...found.environments],
        endpoints: [...found.endpoints.values()].map(({ method, path, seenAtMs }) => ({
          method,
          path,
          seenAt: new Date(seenAtMs).toISOString(),
        })),
      })),
      probe: this.probe,
    };
  }

  /** Time and environment, the checks every kind shares; the app was resolved by the caller. */
  private settle(
    input: I,
    app: AppRef | string,
    timestampMs: number | null,
    sentEnvironment: string | undefined,
  ): CommonFields | null {
    const { problems, context } = this;
    if (timestampMs === null) {
      problems.push({
        path: "/timestamp",
        message: "must be an ISO 8601 date-time such as 2026-11-21T06:00:00.000Z",
      });
    } else if (timestampMs < this.oldestMs) {
      problems.push({
        path: "/timestamp",
        message: `is older than the retention window of ${context.retentionDays} days`,
      });
    } else if (timestampMs > this.newestMs) {
      problems.push({ path: "/timestamp", message: "is more than 1 hour ahead of the server's clock" });
    }
    const environment = environmentOf(sentEnvironment);
    if (environment === "" || environment.length > INGEST_LIMITS.environmentLength) {
      problems.push({
        path: "/environment",
        message: `must be 1–${INGEST_LIMITS.environmentLength} characters after trimming`,
      });
    }
    if (problems.length > 0 || typeof app === "string" || timestampMs === null) return null;
    return {
      id: this.kind.rowId?.(input, timestampMs) ?? uuidV7At(timestampMs),
      projectId: context.principal.project.id,
      app,
      timestampMs,
      environment,
      retentionDays: context.retentionDays,
      rollupDays: context.rollupDays ?? 0,
      storedOn: this.storedOn,
    };
  }
}

/** Adds the record's fields that `known` lacks to `ignored` (names cut; a bounded set). */
function noteUnknownFields(record: unknown, known: ReadonlySet<string>, ignored: Set<string>): void {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return;
  for (const field in record) {
    if (known.has(field) || ignored.size >= INGEST_LIMITS.listedIgnoredFields) continue;
    ignored.add(field.slice(0, INGEST_LIMITS.identifierLength));
  }
}

function validatorFor<R, Column extends string>(kind: RecordKind<R, Column>): ValidateFunction {
  let validate = validators.get(kind.schema);
  if (validate === undefined) {
    validate = ajv.compile(kind.schema);
    validators.set(kind.schema, validate);
  }
  return validate;
}

/** Ajv's errors as record problems; a union's failed branches become one "must be a or b". */
function schemaProblems(errors: readonly ErrorObject[]): RecordProblem[] {
  const unions = new Map<string, string[]>();
  for (const error of errors) {
    if (error.keyword === "type" && error.schemaPath.includes("/anyOf/")) {
      const types = unions.get(error.instancePath) ?? [];
      types.push(String((error.params as { type?: unknown }).type));
      unions.set(error.instancePath, types);
    }
  }
  const problems: RecordProblem[] = [];
  for (const error of errors) {
    if (error.schemaPath.includes("/anyOf/") && unions.has(error.instancePath)) continue;
    const pointer = pointerOf(error, "body");
    const types = error.keyword === "anyOf" ? unions.get(error.instancePath) : undefined;
    problems.push({
      path: pointer === "/" ? "" : pointer,
      message:
        types !== undefined
          ? `must be ${types.join(" or ")}`
          : error.keyword === "maxProperties"
            ? `must have at most ${String((error.params as { limit?: unknown }).limit)} keys`
            : messageOf(error),
    });
  }
  return problems;
}

interface CommonInput {
  readonly project_slug?: string;
  readonly app_id: string;
  readonly timestamp: string;
  /** Required by the request and log schemas; a span without one is in `production`. */
  readonly environment?: string;
}

const COMMON_COLUMNS: readonly CommonColumn[] = [
  "id",
  "project_id",
  "app_id",
  "timestamp",
  "environment",
  "retention_days",
  "rollup_days",
  "stored_on",
];

function commonValue(common: CommonFields, column: CommonColumn): string | number {
  switch (column) {
    case "id":
      return common.id;
    case "project_id":
      return common.projectId;
    case "app_id":
      return common.app.id;
    case "timestamp":
      return common.timestampMs;
    case "environment":
      return common.environment;
    case "retention_days":
      return common.retentionDays;
    case "rollup_days":
      return common.rollupDays;
    case "stored_on":
      return common.storedOn;
  }
}

/** The record's environment, normalised; the common names skip the string work. */
function environmentOf(sent: string | undefined): string {
  if (sent === undefined || sent === "production") return "production";
  return normaliseEnvironmentName(sent);
}

/** Resolves `app_id` (UUID in any letter case, or slug) to a live app the key may write to;
 *  a string is the reason it cannot. */
function appResolver(context: BatchContext): (identifier: string) => AppRef | string {
  const { principal } = context;
  const byIdentifier = new Map<string, AppRef>();
  const allowed = principal.app === null ? context.apps : [principal.app];
  for (const app of allowed) {
    byIdentifier.set(app.id.toLowerCase(), app);
    byIdentifier.set(app.slug.toLowerCase(), app);
  }
  return (identifier) => {
    // Clients send the same spelling on every record: the exact text is looked up first.
    const app = byIdentifier.get(identifier) ?? byIdentifier.get(identifier.trim().toLowerCase());
    if (app !== undefined) return app;
    return principal.app === null
      ? `is not a live app of project "${principal.project.slug}"`
      : `must name app "${principal.app.slug}": this API key belongs to that app only`;
  };
}

/** Per app: environments seen and, per (method, template), the newest record's time. */
type DiscoveryMap = Map<
  string,
  {
    environments: Set<string>;
    endpoints: Map<string, { method: string; path: string; seenAtMs: number }>;
  }
>;

function noteDiscovery(
  discovery: DiscoveryMap,
  common: CommonFields,
  endpoint: { readonly method: string; readonly path: string } | null,
): void {
  let found = discovery.get(common.app.id);
  if (found === undefined) {
    found = { environments: new Set(), endpoints: new Map() };
    discovery.set(common.app.id, found);
  }
  found.environments.add(common.environment);
  if (endpoint === null) return;
  const key = `${endpoint.method} ${endpoint.path}`;
  const known = found.endpoints.get(key);
  if (known === undefined) {
    found.endpoints.set(key, { method: endpoint.method, path: endpoint.path, seenAtMs: common.timestampMs });
  } else if (known.seenAtMs < common.timestampMs) {
    known.seenAtMs = common.timestampMs;
  }
}
