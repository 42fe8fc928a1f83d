// Reading a project's audit log: newest first, one page at a time, with each actor as people
// see them now (a deleted account shows as "Deleted user").
import { type AuditEvent, type AuditLogPage, type AuditLogQuery, DATA_PAGING } from "@sightline/contracts";
import type { Kysely } from "kysely";
import { userRefOf } from "../../lib/user-ref.js";
import {
  type AuditEventWithActorRow,
  createAuditEventsRepo,
} from "../../stores/metadata/repos/audit-events.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { ProjectScope } from "../access/index.js";

function toEvent(row: AuditEventWithActorRow): AuditEvent {
  return {
    id: row.id,
    action: row.action as AuditEvent["action"],
    actor:
      row.actor_id === null
        ? null
        : userRefOf({
            id: row.actor_id,
            email: row.actor_email ?? "",
            first_name: row.actor_first_name ?? "",
            last_name: row.actor_last_name ?? "",
          }),
    target: { type: row.target_type, id: row.target_id, label: row.target_label },
    details: JSON.parse(row.details) as Record<string, unknown>,
    created_at: row.created_at,
  };
}

export function createAuditService(db: Kysely<MetadataTables>) {
  const events = createAuditEventsRepo(db);
  return {
    async page(scope: ProjectScope, query: AuditLogQuery): Promise<AuditLogPage> {
      const page = query.page ?? 1;
      const pageSize = Math.min(query.page_size ?? DATA_PAGING.defaultPageSize, DATA_PAGING.maxPageSize);
      const { rows, total } = await events.page(scope.project.id, {
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      return { items: rows.map(toEvent), total_count: total, page, page_size: pageSize };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
