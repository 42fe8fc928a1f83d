// Writing the audit log: each service records its event with the same transaction handle it
// makes the change with, so the change and its record commit (or roll back) together.
import type { AuditAction } from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { newOrderedId } from "../../lib/ids.js";
import { createAuditEventsRepo } from "../../stores/metadata/repos/audit-events.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";

export interface AuditEntry {
  readonly projectId: string;
  /** Who did it; null for changes the system made. */
  readonly actorId: string | null;
  readonly action: AuditAction;
  readonly target: { readonly type: string; readonly id: string; readonly label: string };
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface AuditTrail {
  /** Appends an event inside the caller's transaction (or on the store directly). */
  record(db: Kysely<MetadataTables>, entry: AuditEntry): Promise<void>;
}

export function createAuditTrail(clock: Clock): AuditTrail {
  return {
    async record(db, entry) {
      const now = clock.now();
      await createAuditEventsRepo(db).insert({
        // Time-ordered ids keep events written in the same millisecond in the order they happened.
        id: newOrderedId(now.getTime()),
        project_id: entry.projectId,
        actor_id: entry.actorId,
        action: entry.action,
        target_type: entry.target.type,
        target_id: entry.target.id,
        target_label: entry.target.label,
        details: JSON.stringify(entry.details ?? {}),
        created_at: toIsoTimestamp(now),
      });
    },
  };
}
