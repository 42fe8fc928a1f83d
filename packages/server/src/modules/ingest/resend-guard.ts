// Recognising a resent batch of rows whose ids derive from their inputs (OTLP spans, ADR 0012):
// this process's memory of the batches it stored lately, and for a batch it does not remember, a
// look-up of the batch's first row in the store. Look-ups waiting at one turn of the event loop go
// out as one statement per table: a busy receiver pays one read per turn, not one per batch (one
// point read per batch made chDB's two read sessions the bottleneck of OTLP ingest).
import type { EventsExecutor } from "../../stores/events/index.js";
import { storedRowIds } from "../../stores/events/queries/ingest/stored-rows.js";
import type { BatchProbe } from "./ingest.pipeline.js";

/** How long a stored batch is recognised from memory (and, on chDB, how long after start-up
 *  unremembered batches are looked up): exporters give up on an export within minutes. */
export const RESEND_MEMORY_MS = 10 * 60_000;
const MEMORY_MS = RESEND_MEMORY_MS;
/** Batches remembered at most (about 100 bytes each): at higher rates the memory is shorter. */
const MEMORY_BATCHES = 200_000;
/** First rows one look-up statement asks for at most. */
const LOOKUP_CHUNK = 100;

export interface ResendGuard {
  /** Whether the batch whose first row is `probe` is stored already: remembered, or found in
   *  the store. A failed look-up answers false (a duplicate is better than a lost batch). */
  stored(table: string, projectId: string, probe: BatchProbe, nowMs: number): Promise<boolean>;
  /** Notes a batch as stored. */
  remember(table: string, projectId: string, probe: BatchProbe, nowMs: number): void;
}

interface Lookup {
  readonly projectId: string;
  readonly probe: BatchProbe;
  readonly resolve: (found: boolean) => void;
}

/**
 * `lookUpUntilMs`: after it, a batch this process does not remember is taken as new without a
 * look-up. On chDB this process is the only writer of its data directory, so such a batch can only
 * have been stored by an earlier run of it, whose exporters resend within minutes of the restart:
 * only the first minutes need look-ups (they cost OTLP ingest a third of its throughput on two
 * cores). A ClickHouse server may have taken the batch through another instance: look up always.
 */
export function createResendGuard(events: EventsExecutor, lookUpUntilMs: number): ResendGuard {
  const memory = new Map<string, number>();
  const waiting = new Map<string, Lookup[]>();
  let scheduled = false;

  const keyOf = (table: string, projectId: string, id: string) => `${table}/${projectId}/${id}`;

  function remember(key: string, nowMs: number): void {
    memory.delete(key);
    memory.set(key, nowMs);
    for (const [oldest, at] of memory) {
      if (memory.size <= MEMORY_BATCHES && nowMs - at < MEMORY_MS) break;
      memory.delete(oldest);
    }
  }

  /** One statement per project and LOOKUP_CHUNK first rows: point conditions on the sort key
   *  (project_id, timestamp, id), which the primary index answers. */
  async function lookUp(table: string, lookups: readonly Lookup[]): Promise<void> {
    const byProject = new Map<string, Lookup[]>();
    for (const lookup of lookups) {
      const list = byProject.get(lookup.projectId) ?? [];
      list.push(lookup);
      byProject.set(lookup.projectId, list);
    }
    for (const [projectId, list] of byProject) {
      for (let start = 0; start < list.length; start += LOOKUP_CHUNK) {
        const chunk = list.slice(start, start + LOOKUP_CHUNK);
        let found = new Set<string>();
        try {
          found = await storedRowIds(
            events,
            table,
            projectId,
            chunk.map((lookup) => lookup.probe),
          );
        } catch {
          // Not found, then: the batches are stored.
        }
        for (const lookup of chunk) lookup.resolve(found.has(lookup.probe.id));
      }
    }
  }

  function flush(): void {
    scheduled = false;
    const tables = [...waiting];
    waiting.clear();
    for (const [table, lookups] of tables) void lookUp(table, lookups);
  }

  return {
    async stored(table, projectId, probe, nowMs) {
      const key = keyOf(table, projectId, probe.id);
      const at = memory.get(key);
      if (at !== undefined && nowMs - at < MEMORY_MS) return true;
      if (nowMs >= lookUpUntilMs) return false;
      const found = await new Promise<boolean>((resolve) => {
        const list = waiting.get(table) ?? [];
        list.push({ projectId, probe, resolve });
        waiting.set(table, list);
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
      if (found) remember(key, nowMs);
      return found;
    },
    remember(table, projectId, probe, nowMs) {
      remember(keyOf(table, projectId, probe.id), nowMs);
    },
  };
}
