// Heartbeats of running app instances: the key's app is resolved as ingest resolves a record's
// `app_id`, the beat replaces the instance's previous one, and it costs one record of the key's
// ingest rate. The apps API reads them back as `last_heartbeat_at` and `alive`.
import { type HeartbeatAnswer, INGEST_LIMITS, type IngestHeartbeat } from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { createAppHeartbeatsRepo } from "../../stores/metadata/repos/app-heartbeats.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { normaliseEnvironmentName } from "../environments/index.js";
import type { IngestDirectory, KeyPrincipal } from "./directory.js";

export interface HeartbeatServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly directory: IngestDirectory;
  readonly clock: Clock;
}

export interface HeartbeatService {
  /** Stores the beat as its instance's newest; 422 when it names no app the key may write to. */
  record(principal: KeyPrincipal, beat: IngestHeartbeat): Promise<HeartbeatAnswer>;
}

export function createHeartbeatService({ db, directory, clock }: HeartbeatServiceDeps): HeartbeatService {
  const repo = createAppHeartbeatsRepo(db);

  async function appOf(principal: KeyPrincipal, beat: IngestHeartbeat): Promise<string> {
    const slug = beat.project_slug?.trim() ?? "";
    if (slug !== "" && slug.toLowerCase() !== principal.project.slug) {
      throw invalid("/project_slug", `must be "${principal.project.slug}", the API key's project`);
    }
    const wanted = beat.app_id.trim().toLowerCase();
    const allowed =
      principal.app === null ? await directory.listLiveApps(principal.project.id) : [principal.app];
    const app = allowed.find(
      (candidate) => candidate.id.toLowerCase() === wanted || candidate.slug === wanted,
    );
    if (app !== undefined) return app.id;
    throw invalid(
      "/app_id",
      principal.app === null
        ? `is not a live app of project "${principal.project.slug}"`
        : `must name app "${principal.app.slug}": this API key belongs to that app only`,
    );
  }

  return {
    async record(principal, beat) {
      const appId = await appOf(principal, beat);
      const environment = normaliseEnvironmentName(beat.environment ?? "production");
      if (environment === "" || environment.length > INGEST_LIMITS.environmentLength) {
        throw invalid(
          "/environment",
          `must be 1–${INGEST_LIMITS.environmentLength} characters after trimming`,
        );
      }
      const receivedAt = toIsoTimestamp(clock.now());
      await repo.put({
        app_id: appId,
        instance_id: beat.instance_id,
        environment,
        sdk: beat.sdk,
        sdk_version: beat.sdk_version,
        runtime: beat.runtime,
        uptime_s: beat.uptime_s ?? null,
        cpu_percent: beat.cpu_percent ?? null,
        memory_rss_bytes: beat.memory_rss_bytes ?? null,
        memory_heap_used_bytes: beat.memory_heap_used_bytes ?? null,
        interval_s: beat.interval_s ?? null,
        received_at: receivedAt,
      });
      return { app_id: appId, instance_id: beat.instance_id, received_at: receivedAt };
    },
  };
}

function invalid(pointer: string, message: string): AppError {
  return new AppError("validation_error", `The heartbeat's ${pointer.slice(1)} ${message}.`, {
    errors: [{ pointer, message }],
  });
}
