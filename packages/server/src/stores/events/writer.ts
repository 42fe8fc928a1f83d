// The buffered writer of one events table (group commit): batches arriving concurrently wait
// together and go out as one insert, so the engine sees few large inserts (one part each)
// instead of one small insert per request. Up to the executor's insertLanes inserts run at once.
// A batch's promise settles with the insert that holds all of its rows; a batch is never split
// across inserts, and an insert only holds batches of one table partition. No tenant may hold more than its share of the pending rows and bytes, so one
// project's flood leaves room for the others.
import type { Logger } from "pino";
import { type EventsExecutor, EventsStoreError } from "./executor.js";
import type { InsertFormat } from "./row-encoding.js";
import type { EventsTable } from "./tables/index.js";

/** Rows encoded in the table's column order (row-encoding.ts): inserted whole. */
export interface RowChunk {
  readonly body: Buffer;
  /** The body's format (default JSONCompactEachRow); chunks of different formats never share
   *  an insert. */
  readonly format?: InsertFormat;
  readonly rowCount: number;
  /** The table partition every row of the chunk falls in, when the table has partitions:
   *  chunks of different partitions never share an insert, so an insert stays one part,
   *  stored whole or not at all (docs/adr/0005, 0023). */
  readonly partition?: string;
}

export interface EventsWriterOptions {
  readonly executor: EventsExecutor;
  /** The table's declaration: its name and the column order of every row. */
  readonly table: EventsTable;
  /** An insert starts at once when this many rows wait... */
  readonly flushRows: number;
  /** ...or this many bytes (big payloads make few rows large)... */
  readonly flushBytes: number;
  /** ...and otherwise this long after the previous insert started (at once when idle longer). */
  readonly flushIntervalMs: number;
  /** Rows waiting or being inserted beyond which new batches are refused instead of queued. */
  readonly maxPendingRows: number;
  readonly maxPendingBytes: number;
  /** The fraction (0–1] of maxPendingRows and maxPendingBytes one tenant may hold; beyond it
   *  its batches are refused with TenantOverShareError while others still get in. Default 1. */
  readonly tenantShare?: number;
  readonly logger: Logger;
}

export interface WriterStats {
  readonly queuedRows: number;
  readonly insertingRows: number;
  readonly insertedRows: number;
  readonly inserts: number;
  readonly failedRows: number;
  readonly refusedBatches: number;
  /** Batches refused because their tenant held its share of the pending rows or bytes. */
  readonly overShareBatches: number;
}

export interface EventsWriter {
  readonly table: string;
  /** Resolves once the insert holding every row of `chunk` has succeeded; rejects with
   *  TenantOverShareError, WriterOverloadedError, WriterClosedError or the store's
   *  EventsStoreError otherwise. `tenant` is whose rows they are (the project; default one
   *  shared tenant). */
  write(chunk: RowChunk, tenant?: string): Promise<void>;
  stats(): WriterStats;
  /** Refuses new batches, inserts everything waiting, and resolves when nothing is left. */
  close(): Promise<void>;
}

/** Too many rows are waiting: the caller should retry later (503 + Retry-After). */
export class WriterOverloadedError extends Error {
  constructor(table: string) {
    super(`The ${table} writer is at capacity`);
    this.name = "WriterOverloadedError";
  }
}

/** The tenant already holds its share of the pending rows: it should slow down (429 +
 *  Retry-After), while the writer still takes other tenants' batches. */
export class TenantOverShareError extends Error {
  constructor(table: string) {
    super(`The tenant holds its share of the ${table} writer's pending rows`);
    this.name = "TenantOverShareError";
  }
}

/** The writer is shutting down and takes no more batches (503 + Retry-After). */
export class WriterClosedError extends Error {
  constructor(table: string) {
    super(`The ${table} writer is closed`);
    this.name = "WriterClosedError";
  }
}

interface Waiter {
  readonly chunk: RowChunk;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export function createEventsWriter(options: EventsWriterOptions): EventsWriter {
  const { executor, logger } = options;
  const table = options.table.name;
  const columns = options.table.columnNames;
  let queue: Waiter[] = [];
  let queuedRows = 0;
  let queuedBytes = 0;
  let insertingRows = 0;
  let insertingBytes = 0;
  /** Inserts in flight, at most executor.insertLanes. */
  const flushes = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let starting = false;
  let lastStartedAt = Number.NEGATIVE_INFINITY;
  let closing = false;
  let closed: Promise<void> | undefined;
  const counters = { insertedRows: 0, inserts: 0, failedRows: 0, refusedBatches: 0, overShareBatches: 0 };
  /** Rows and bytes waiting or being inserted, per tenant that has any. */
  const held = new Map<string, { rows: number; bytes: number }>();
  const share = options.tenantShare ?? 1;
  const tenantRows = Math.max(1, Math.floor(options.maxPendingRows * share));
  const tenantBytes = Math.max(1, Math.floor(options.maxPendingBytes * share));

  function release(tenant: string, chunk: RowChunk): void {
    const holding = held.get(tenant);
    if (holding === undefined) return;
    holding.rows -= chunk.rowCount;
    holding.bytes -= chunk.body.length;
    if (holding.rows <= 0 && holding.bytes <= 0) held.delete(tenant);
  }

  /**
   * Starts an insert when one is due and a lane is free, otherwise arms the timer. Due means:
   * flushRows (or flushBytes) are waiting, or flushIntervalMs have passed since the previous
   * insert started. Inserts thus start at most once per interval unless they are full, and the
   * interval elapses while earlier inserts run instead of after them.
   */
  function pump(): void {
    if (flushes.size >= executor.insertLanes || starting || queue.length === 0) return;
    const sinceLast = performance.now() - lastStartedAt;
    const due =
      closing ||
      queuedRows >= options.flushRows ||
      queuedBytes >= options.flushBytes ||
      sinceLast >= options.flushIntervalMs;
    if (!due) {
      timer ??= setTimeout(
        () => {
          timer = undefined;
          pump();
        },
        Math.max(1, Math.ceil(options.flushIntervalMs - sinceLast)),
      );
      return;
    }
    // On the next turn of the event loop, so batches parsed in the same turn share the insert.
    starting = true;
    setImmediate(() => {
      starting = false;
      if (flushes.size >= executor.insertLanes || queue.length === 0) return;
      lastStartedAt = performance.now();
      const flushing: Promise<void> = flush(takeInsert()).finally(() => {
        flushes.delete(flushing);
        pump();
      });
      flushes.add(flushing);
      // Another lane may take what is still waiting, or arm the timer for it.
      pump();
    });
  }

  /** Whole batches of the head batch's partition, in queue order, up to one insert's size (at
   *  least one batch); batches of other partitions keep their place for a later insert. */
  function takeInsert(): Waiter[] {
    const partition = queue[0]?.chunk.partition;
    const format = queue[0]?.chunk.format;
    let rows = 0;
    let bytes = 0;
    const taken: Waiter[] = [];
    const left: Waiter[] = [];
    let full = false;
    for (const waiter of queue) {
      full ||=
        taken.length > 0 &&
        (rows + waiter.chunk.rowCount > options.flushRows ||
          bytes + waiter.chunk.body.length > options.flushBytes);
      if (full || waiter.chunk.partition !== partition || waiter.chunk.format !== format) {
        left.push(waiter);
        continue;
      }
      rows += waiter.chunk.rowCount;
      bytes += waiter.chunk.body.length;
      taken.push(waiter);
    }
    queue = left;
    queuedRows -= rows;
    queuedBytes -= bytes;
    return taken;
  }

  async function flush(taken: Waiter[]): Promise<void> {
    const rows = sumRows(taken);
    const bytes = taken.reduce((sum, waiter) => sum + waiter.chunk.body.length, 0);
    insertingRows += rows;
    insertingBytes += bytes;
    try {
      await insertIsolating(taken);
    } finally {
      insertingRows -= rows;
      insertingBytes -= bytes;
    }
  }

  /**
   * One insert for the group. If the engine refuses it for its rows (`rejected`: nothing of it
   * was stored), the halves are retried apart until the batch carrying the bad row fails alone:
   * its neighbours are stored and answered as if nothing happened.
   */
  async function insertIsolating(group: readonly Waiter[]): Promise<void> {
    const rowCount = sumRows(group);
    const body =
      group.length === 1 ? (group[0] as Waiter).chunk.body : Buffer.concat(group.map((w) => w.chunk.body));
    try {
      const format = (group[0] as Waiter).chunk.format;
      await executor.insert({ table, columns, body, rowCount, ...(format === undefined ? {} : { format }) });
      counters.inserts += 1;
      counters.insertedRows += rowCount;
      for (const waiter of group) waiter.resolve();
    } catch (error) {
      if (group.length > 1 && error instanceof EventsStoreError && error.kind === "rejected") {
        const middle = group.length >> 1;
        await insertIsolating(group.slice(0, middle));
        await insertIsolating(group.slice(middle));
        return;
      }
      counters.failedRows += rowCount;
      logger.warn(
        { table, rows: rowCount, batches: group.length, ...failureFacts(error) },
        "events insert failed",
      );
      for (const waiter of group) waiter.reject(error);
    }
  }

  return {
    table,
    write(chunk, tenant = "") {
      if (closing) return Promise.reject(new WriterClosedError(table));
      const pendingRows = queuedRows + insertingRows;
      const pendingBytes = queuedBytes + insertingBytes;
      // An idle writer takes any batch, so a limit below one batch cannot lock ingest out.
      if (
        pendingRows > 0 &&
        (pendingRows + chunk.rowCount > options.maxPendingRows ||
          pendingBytes + chunk.body.length > options.maxPendingBytes)
      ) {
        counters.refusedBatches += 1;
        return Promise.reject(new WriterOverloadedError(table));
      }
      // Likewise a tenant holding nothing may always send one batch. A full writer is the
      // server's answer (above); a tenant over its share while there is room is its own.
      const holding = held.get(tenant);
      if (
        holding !== undefined &&
        (holding.rows + chunk.rowCount > tenantRows || holding.bytes + chunk.body.length > tenantBytes)
      ) {
        counters.overShareBatches += 1;
        return Promise.reject(new TenantOverShareError(table));
      }
      if (holding === undefined) held.set(tenant, { rows: chunk.rowCount, bytes: chunk.body.length });
      else {
        holding.rows += chunk.rowCount;
        holding.bytes += chunk.body.length;
      }
      return new Promise<void>((resolve, reject) => {
        queue.push({
          chunk,
          resolve: () => {
            release(tenant, chunk);
            resolve();
          },
          reject: (error) => {
            release(tenant, chunk);
            reject(error);
          },
        });
        queuedRows += chunk.rowCount;
        queuedBytes += chunk.body.length;
        pump();
      });
    },
    stats() {
      return { queuedRows, insertingRows, ...counters };
    },
    close() {
      closed ??= (async () => {
        closing = true;
        clearTimeout(timer);
        timer = undefined;
        pump();
        while (flushes.size > 0 || starting || queue.length > 0) {
          if (flushes.size > 0) await Promise.race(flushes);
          else await new Promise<void>((resolve) => setImmediate(resolve));
        }
      })();
      return closed;
    },
  };
}

function sumRows(group: readonly Waiter[]): number {
  return group.reduce((sum, waiter) => sum + waiter.chunk.rowCount, 0);
}

/** What a log line may say about a failed insert: the engine's code and error name and the row
 *  it stopped at. Never the error itself: the engine's text (kept out of our errors' messages and
 *  causes) quotes the rows it could not read. */
function failureFacts(error: unknown): Record<string, unknown> {
  if (!(error instanceof EventsStoreError)) {
    return { reason: error instanceof Error ? error.name : typeof error };
  }
  return {
    reason: error.message,
    kind: error.kind,
    code: error.clickhouseCode,
    engine_error: error.engineError,
    row: error.failedAtRow,
  };
}
