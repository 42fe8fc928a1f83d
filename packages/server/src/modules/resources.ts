// Assembles the resource model's services (projects, apps, API keys, environments,
// endpoints) over one metadata store, wires their cache invalidation to each other, and
// exposes the IngestDirectory that ingest depends on.
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Clock } from "../clock.js";
import { createApiKeysRepo } from "../stores/metadata/repos/api-keys.repo.js";
import type { MetadataTables } from "../stores/metadata/schema.js";
import { type ApiKeysService, createApiKeysService } from "./api-keys/api-keys.service.js";
import { createKeyAuthenticator } from "./api-keys/key-authenticator.js";
import { type AppsService, createAppsService } from "./apps/apps.service.js";
import { createEndpointsService, type EndpointsService } from "./endpoints/endpoints.service.js";
import { createEnvironmentsService, type EnvironmentsService } from "./environments/environments.service.js";
import type { IngestDirectory } from "./ingest/directory.js";
import { createProjectsService, type ProjectsService } from "./projects/projects.service.js";

export interface ResourceServices {
  readonly projects: ProjectsService;
  readonly apps: AppsService;
  readonly apiKeys: ApiKeysService;
  readonly environments: EnvironmentsService;
  readonly endpoints: EndpointsService;
  readonly ingestDirectory: IngestDirectory;
  /** Writes pending key usage; call before the metadata store closes. */
  close(): Promise<void>;
}

export function createResourceServices(deps: {
  db: Kysely<MetadataTables>;
  clock: Clock;
  logger: Logger;
}): ResourceServices {
  const { db, clock, logger } = deps;
  const authenticator = createKeyAuthenticator(createApiKeysRepo(db), clock, {
    onUsageError: (error) => logger.warn({ err: error }, "could not record API key usage"),
  });
  const projects = createProjectsService({
    db,
    clock,
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
    projects,
    invalidation: {
      appDeleted(appId, revokedKeyHashes) {
        authenticator.forgetKeys(revokedKeyHashes);
        authenticator.forgetApp(appId);
      },
    },
  });
  const environments = createEnvironmentsService({ db, clock });
  const endpoints = createEndpointsService({ db, clock });

  return {
    projects,
    apps: apps,
    apiKeys: createApiKeysService({ db, clock, authenticator }),
    environments,
    endpoints,
    ingestDirectory: {
      authenticateKey: (rawKey) => authenticator.authenticate(rawKey),
      listLiveApps: (projectId) => apps.listLiveRefs(projectId),
      ensureEnvironments: (appId, names) => environments.ensure(appId, names),
      ensureEndpoints: (appId, seen) => endpoints.ensure(appId, seen),
    },
    close: () => authenticator.close(),
  };
}
