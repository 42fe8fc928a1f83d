// Assembles uptime checks over the stores: the service the routes call, and the runner with its
// lease-holding scheduler (notifications go through the alerts' delivery worker). One close().
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Clock } from "../../clock.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { createLeasesRepo } from "../../stores/metadata/repos/leases.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { createUptimeRunner } from "./uptime.runner.js";
import { createUptimeScheduler, type UptimeScheduler } from "./uptime.scheduler.js";
import { createUptimeService, type UptimeService } from "./uptime.service.js";

export interface UptimeModule {
  readonly service: UptimeService;
  readonly scheduler: UptimeScheduler;
  start(): void;
  close(): Promise<void>;
}

export function createUptimeModule(deps: {
  db: Kysely<MetadataTables>;
  events: EventsExecutor;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  allowPrivateTargets: boolean;
  /** Wakes the delivery worker after a pass queued notifications. */
  kickDeliveries: () => void;
}): UptimeModule {
  const service = createUptimeService(deps);
  const scheduler = createUptimeScheduler({
    leases: createLeasesRepo(deps.db),
    runner: createUptimeRunner(deps),
    clock: deps.clock,
    logger: deps.logger,
    onNotifications: deps.kickDeliveries,
  });
  return { service, scheduler, start: () => scheduler.start(), close: () => scheduler.close() };
}
