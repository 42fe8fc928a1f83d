// Assembles the resource model's services (projects, apps, API keys, environments, endpoints)
// over one metadata store, wires their cache invalidation to each other, and exposes the
// IngestDirectory that ingest depends on. Part of the composition root, beside deps.ts.
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Clock } from "./clock.js";
import {
  type ApiKeysService,
  createApiKeysService,
  createKeyAuthenticator,
} from "./modules/api-keys/index.js";
import { type AppsService, createAppsService } from "./modules/apps/index.js";
import type { AuditTrail } from "./modules/audit/index.js";
import { createEndpointsService, type EndpointsService } from "./modules/endpoints/index.js";
import { createEnvironmentsService, type EnvironmentsService } from "./modules/environments/index.js";
import type { IngestDirectory } from "./modules/ingest/index.js";
import { createProjectsService, type ProjectsService } from "./modules/projects/index.js";
import {
  createRetentionService,
  type RetentionMaxima,
  type RetentionService,
} from "./modules/retention/index.js";
import { createApiKeysRepo } from "./stores/metadata/repos/api-keys.repo.js";
import type { MetadataTables } from "./stores/metadata/schema.js";

export interface ResourceServices {
  readonly projects: ProjectsService;
  readonly apps: AppsService;
  readonly apiKeys: ApiKeysService;
  readonly environments: EnvironmentsService;
  readonly endpoints: EndpointsService;
  readonly retention: RetentionService;
  readonly ingestDirectory: IngestDirectory;
  /** Writes pending key usage; call before the metadata store closes. */
  close(): Promise<void>;
}

export function createResourceServices(deps: {
  db: Kysely<MetadataTables>;
  clock: Clock;
  audit: AuditTrail;
  logger: Logger;
  /** The server's retention days: each project's maximum and default. */
  retention: RetentionMaxima;
}): ResourceServices {
  const { db, clock, audit, logger } = deps;
  const authenticator = createKeyAuthenticator(createApiKeysRepo(db), clock, {
    onUsageError: (error) => logger.warn({ err: error }, "could not record API key usage"),
  });
  const projects = createProjectsService({
    db,
    clock,
    audit,
    invalidation: {
      projectDeleted(projectId, revokedKeyHashes) {
        authenticator.forgetKeys(revokedKeyHashes);
        authenticator.forgetProject(projectId);
        // Runs only after both services exist: `apps` is defined below.
        apps.forgetProject(projectId);
      },
    },
  });
  const apps = createAppsService({
    db,
    clock,
    audit,
    invalidation: {
      appDeleted(appId, revokedKeyHashes) {
        authenticator.forgetKeys(revokedKeyHashes);
        authenticator.forgetApp(appId);
      },
    },
  });
  const environments = createEnvironmentsService({ db, clock, audit });
  const endpoints = createEndpointsService({ db, clock });

  return {
    projects,
    apps,
    apiKeys: createApiKeysService({ db, clock, audit, authenticator }),
    environments,
    endpoints,
    retention: createRetentionService({
      db,
      clock,
      audit,
      maxima: deps.retention,
      // Ingest reads a project's retention with its key: cached keys go, so the next batch
      // is stored with the new days (other instances within the key cache's 5 s).
      retentionChanged: (projectId) => authenticator.forgetProject(projectId),
    }),
    ingestDirectory: {
      authenticateKey: (rawKey) => authenticator.authenticate(rawKey),
      listLiveApps: (projectId) => apps.listLiveRefs(projectId),
      ensureEnvironments: (appId, names) => environments.ensure(appId, names),
      ensureEndpoints: (appId, seen) => endpoints.ensure(appId, seen),
    },
    close: () => authenticator.close(),
  };
}
