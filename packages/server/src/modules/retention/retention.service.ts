// A project's retention settings (GET/PATCH /projects/{slug}/retention): reads the stored days
// bounded by the server's, and changes them for records stored from now on. Never touches the
// events store: a change rewrites nothing (docs/adr/0023-partitions-and-retention.md).
import {
  type ProjectRetention,
  RETENTION_KINDS,
  type RetentionKind,
  type UpdateProjectRetentionBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { createProjectsRepo, type ProjectRow } from "../../stores/metadata/repos/projects.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { type ProjectScope, reauthorize } from "../access/index.js";
import type { AuditTrail } from "../audit/index.js";
import { keptDays, maximumOf, type RetentionMaxima, storedRetentionOf } from "./retention.policy.js";

export interface RetentionServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly maxima: RetentionMaxima;
  /** Drops what ingest cached about the project, so new records get the new days at once. */
  readonly retentionChanged: (projectId: string) => void;
}

const COLUMN = {
  requests: "requests_retention_days",
  logs: "logs_retention_days",
  spans: "spans_retention_days",
  rollups: "rollups_retention_days",
} as const satisfies Record<RetentionKind, keyof ProjectRow>;

export function createRetentionService({ db, clock, audit, maxima, retentionChanged }: RetentionServiceDeps) {
  function retentionOf(row: ProjectRow): ProjectRetention {
    const stored = storedRetentionOf(row);
    const days = (kind: RetentionKind) => keptDays(stored[kind], maximumOf(maxima, kind));
    return {
      requests_days: days("requests"),
      logs_days: days("logs"),
      spans_days: days("spans"),
      rollups_days: days("rollups"),
      max: {
        requests_days: maxima.requestsDays,
        logs_days: maxima.logsDays,
        spans_days: maxima.spansDays,
        rollups_days: maxima.rollupsDays,
      },
    };
  }

  return {
    getRetention(scope: ProjectScope): ProjectRetention {
      return retentionOf(scope.project);
    },

    /** Days a records list of `kind` can reach back, for the project in scope. */
    keptDays(project: ProjectRow, kind: RetentionKind): number {
      return keptDays(storedRetentionOf(project)[kind], maximumOf(maxima, kind));
    },

    async updateRetention(scope: ProjectScope, body: UpdateProjectRetentionBody): Promise<ProjectRetention> {
      const current = retentionOf(scope.project);
      const errors = RETENTION_KINDS.flatMap((kind) => {
        const wanted = body[`${kind}_days`];
        const maximum = maximumOf(maxima, kind);
        return wanted !== undefined && wanted > maximum
          ? [{ pointer: `/${kind}_days`, message: `must be at most ${maximum} (the server's maximum)` }]
          : [];
      });
      if (errors.length > 0) {
        throw new AppError("validation_error", "A retention exceeds the server's maximum.", { errors });
      }
      const changes: Record<string, { from: number; to: number }> = {};
      const values: Partial<Record<(typeof COLUMN)[RetentionKind], number>> = {};
      for (const kind of RETENTION_KINDS) {
        const wanted = body[`${kind}_days`];
        if (wanted === undefined) continue;
        values[COLUMN[kind]] = wanted;
        if (wanted !== current[`${kind}_days`])
          changes[`${kind}_days`] = { from: current[`${kind}_days`], to: wanted };
      }
      const row = await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "project:write");
        const updated = await createProjectsRepo(trx).update(scope.project.id, {
          ...values,
          updated_at: toIsoTimestamp(clock.now()),
        });
        if (Object.keys(changes).length > 0) {
          await audit.record(trx, {
            projectId: scope.project.id,
            actorId: scope.userId,
            action: "project.retention_changed",
            target: { type: "project", id: scope.project.id, label: updated.name },
            details: changes,
          });
        }
        return updated;
      });
      retentionChanged(scope.project.id);
      return retentionOf(row);
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
