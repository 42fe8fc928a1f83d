// The composition root's second half: builds the Fastify app on Deps — plugins first, then
// one module per area under /api/v1. It never listens; main.ts and tests decide that.
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyBaseLogger, LogController } from "fastify";
import type { TrustProxy } from "./config/index.js";
import type { Deps } from "./deps.js";
import { bearerAuthPlugin } from "./http/bearer-auth.js";
import { registerContentEncodingGuard } from "./http/content-encoding.js";
import { errorsPlugin, sendProblem } from "./http/errors.plugin.js";
import { registerGracefulClose } from "./http/graceful-close.js";
import { API_PREFIX, openApiPlugin } from "./http/openapi.plugin.js";
import { REQUEST_ID_HEADER, requestIdFor } from "./http/request-id.js";
import type { App } from "./http/types.js";
import { validatorCompiler } from "./http/validation.js";
import { analyticsRoutes } from "./modules/analytics/analytics.routes.js";
import { authRoutes } from "./modules/auth/auth.routes.js";
import { appApiKeysRoutes } from "./modules/api-keys/app-api-keys.routes.js";
import { appsRoutes } from "./modules/apps/apps.routes.js";
import { dataRoutes } from "./modules/data/data.routes.js";
import { endpointsRoutes } from "./modules/endpoints/endpoints.routes.js";
import { environmentsRoutes } from "./modules/environments/environments.routes.js";
import { ingestRoutes } from "./modules/ingest/ingest.routes.js";
import { metaRoutes } from "./modules/meta/meta.routes.js";
import { projectsRoutes } from "./modules/projects/projects.routes.js";
import { usersRoutes } from "./modules/users/users.routes.js";

/** Default body limit for JSON routes; ingest routes set their own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export async function buildApp(deps: Deps): Promise<App> {
  const app: App = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: requestIdFor,
    logController: new LogController({ requestIdLogLabel: "request_id" }),
    trustProxy: trustProxyOption(deps.config.trustProxy),
    bodyLimit: DEFAULT_BODY_LIMIT,
    return503OnClosing: true,
    // The spec writes collection routes with a trailing slash (`POST /apps/`); accept both.
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: "idle",
    frameworkErrors: (error, request, reply) => sendProblem(request, reply, error),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.addHook("onRequest", async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  registerContentEncodingGuard(app);
  registerGracefulClose(app);

  await app.register(errorsPlugin);
  await app.register(openApiPlugin);
  await app.register(bearerAuthPlugin, { verifier: deps.auth });

  await app.register(
    async (api: App) => {
      await api.register(metaRoutes, { health: deps.health });
      await api.register(authRoutes, { auth: deps.auth });
      await api.register(usersRoutes, { users: deps.users, auth: deps.auth });
      const { projects, apps, apiKeys, environments, endpoints } = deps.resources;
      await api.register(projectsRoutes, { projects, apps, apiKeys });
      await api.register(appsRoutes, { apps });
      await api.register(appApiKeysRoutes, { apps, apiKeys });
      await api.register(environmentsRoutes, { apps, environments });
      await api.register(endpointsRoutes, { apps, endpoints });
      await api.register(dataRoutes, { data: deps.data });
      await api.register(analyticsRoutes, { analytics: deps.analytics });
      await api.register(ingestRoutes, {
        ingest: deps.ingest,
        maxBodyBytes: deps.config.ingest.maxBodyBytes,
        maxBatch: deps.config.ingest.maxBatch,
      });
    },
    { prefix: API_PREFIX },
  );

  return app;
}

/** Fastify's types take a hop count only as a function: trust the `hops` nearest proxies. */
function trustProxyOption(value: TrustProxy): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === "number" ? (_address, hop) => hop < value : value;
}
