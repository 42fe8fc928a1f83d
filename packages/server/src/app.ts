// The composition root's second half: builds the Fastify app on Deps — plugins first, then
// one module per area under /api/v1. It never listens; main.ts and tests decide that.
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyBaseLogger, LogController } from "fastify";
import type { TrustProxy } from "./config/index.js";
import type { Deps } from "./deps.js";
import { dashboardDistDir } from "@sightline/web/dist-dir";
import { bearerAuthPlugin } from "./http/bearer-auth.js";
import { registerBodylessDrain } from "./http/bodyless-requests.js";
import { registerClientDisconnect } from "./http/client-disconnect.js";
import { createClientErrorHandler } from "./http/client-errors.js";
import { registerContentEncodingGuard } from "./http/content-encoding.js";
import { dashboardPlugin } from "./http/dashboard.plugin.js";
import { errorsPlugin, sendProblem } from "./http/errors.plugin.js";
import { registerGracefulClose } from "./http/graceful-close.js";
import { registerHostRequired } from "./http/host-header.js";
import { JSON_BODY_LIMITS, registerJsonBodyParser } from "./http/json-body.js";
import { metricsPlugin } from "./http/metrics.plugin.js";
import { API_PREFIX, openApiPlugin } from "./http/openapi.plugin.js";
import { REQUEST_ID_HEADER, requestIdFor } from "./http/request-id.js";
import { registerSecurityHeaders } from "./http/security-headers.js";
import type { App } from "./http/types.js";
import { createCookieAuthenticator, sessionCookiePlugin } from "./http/session-cookie.js";
import { validatorCompiler } from "./http/validation.js";
import { registerWellFormedInput } from "./http/well-formed.js";
import { accessPlugin, type RouteAccessEntry } from "./modules/access/index.js";
import { alertsRoutes, channelsRoutes } from "./modules/alerts/index.js";
import { analyticsRoutes } from "./modules/analytics/index.js";
import { contractRoutes } from "./modules/contract/index.js";
import { apiKeysRoutes } from "./modules/api-keys/index.js";
import { appsRoutes } from "./modules/apps/index.js";
import { auditRoutes } from "./modules/audit/index.js";
import { authRoutes, browserSessionRoutes, sessionsRoutes } from "./modules/auth/index.js";
import { dataRoutes } from "./modules/data/index.js";
import { endpointsRoutes } from "./modules/endpoints/index.js";
import { environmentsRoutes } from "./modules/environments/index.js";
import { ingestRoutes } from "./modules/ingest/index.js";
import { invitationsRoutes } from "./modules/invitations/index.js";
import { mcpRoutes } from "./modules/mcp/index.js";
import { membersRoutes } from "./modules/members/index.js";
import { metaRoutes } from "./modules/meta/index.js";
import { otlpRoutes } from "./modules/otlp/index.js";
import { projectsRoutes } from "./modules/projects/index.js";
import { retentionRoutes } from "./modules/retention/index.js";
import { savedViewsRoutes } from "./modules/saved-views/index.js";
import { slosRoutes } from "./modules/slos/index.js";
import { uptimeRoutes } from "./modules/uptime/index.js";
import { personalTokensRoutes } from "./modules/tokens/index.js";
import { usersRoutes } from "./modules/users/index.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Every API route with its access declaration, filled as routes register (see tests). */
    readonly routeAccess: readonly RouteAccessEntry[];
  }
}

/** Default body limit for JSON routes; ingest routes set their own. */
export const DEFAULT_BODY_LIMIT = JSON_BODY_LIMITS.bytes;

export async function buildApp(deps: Deps): Promise<App> {
  const app: App = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: requestIdFor,
    logController: new LogController({ requestIdLogLabel: "request_id" }),
    trustProxy: trustProxyOption(deps.config.trustProxy),
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Refused by registerGracefulClose instead, as problem+json.
    return503OnClosing: false,
    // The spec writes collection routes with a trailing slash (`POST /apps/`); accept both.
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: "idle",
    frameworkErrors: (error, request, reply) => sendProblem(request, reply, error),
    clientErrorHandler: createClientErrorHandler(deps.logger),
    // Enforced by registerHostRequired, which answers problem+json rather than a bare 400.
    http: { requireHostHeader: false },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  registerJsonBodyParser(app);
  app.addHook("onRequest", async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  registerHostRequired(app);
  registerBodylessDrain(app, DEFAULT_BODY_LIMIT);
  registerSecurityHeaders(app);
  registerContentEncodingGuard(app);
  registerWellFormedInput(app);
  registerGracefulClose(app);

  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { metrics: deps.metrics, token: deps.config.metricsToken });
  await app.register(openApiPlugin);
  const { publicUrl, publicOrigins: allowedOrigins } = deps.config;
  await app.register(bearerAuthPlugin, {
    verifier: deps.auth,
    personalTokens: deps.personalTokens,
    cookie: createCookieAuthenticator({ verifier: deps.browserSessions, publicUrl, allowedOrigins }),
  });
  await app.register(sessionCookiePlugin, { publicUrl });
  const routeAccess: RouteAccessEntry[] = [];
  app.decorate("routeAccess", routeAccess);

  await app.register(
    async (api: App) => {
      registerClientDisconnect(api);
      // Every route registered below must declare its access; see modules/access.
      await api.register(accessPlugin, {
        resolver: deps.access,
        table: routeAccess,
        tokenUse: (write) => deps.personalTokens.recordWrite(write),
      });
      await api.register(metaRoutes, { health: deps.health });
      await api.register(authRoutes, { auth: deps.auth });
      await api.register(sessionsRoutes, { auth: deps.auth });
      await api.register(browserSessionRoutes, {
        browserSessions: deps.browserSessions,
        publicUrl,
        allowedOrigins,
      });
      await api.register(usersRoutes, { users: deps.users, auth: deps.auth });
      await api.register(personalTokensRoutes, { tokens: deps.personalTokens });
      const { projects, apps, apiKeys, environments, endpoints, retention } = deps.resources;
      await api.register(projectsRoutes, { projects });
      await api.register(retentionRoutes, { retention });
      await api.register(appsRoutes, { apps });
      await api.register(apiKeysRoutes, { apiKeys });
      await api.register(environmentsRoutes, { environments });
      await api.register(endpointsRoutes, { endpoints });
      await api.register(membersRoutes, { members: deps.members });
      await api.register(invitationsRoutes, { invitations: deps.invitations });
      await api.register(auditRoutes, { audit: deps.audit });
      await api.register(dataRoutes, { data: deps.data });
      await api.register(analyticsRoutes, { analytics: deps.analytics });
      await api.register(alertsRoutes, { rules: deps.alerts.rules });
      await api.register(channelsRoutes, { channels: deps.alerts.channels });
      await api.register(mcpRoutes, {
        services: {
          analytics: deps.analytics,
          data: deps.data,
          rules: deps.alerts.rules,
          contract: deps.contract.service,
          projects,
          apps,
          access: deps.access,
          clock: deps.clock,
          logger: deps.logger,
          openApi: () => app.swagger(),
        },
      });
      await api.register(contractRoutes, { contract: deps.contract.service, alerts: deps.contract.alerts });
      await api.register(slosRoutes, { slos: deps.slos });
      await api.register(uptimeRoutes, { uptime: deps.uptime.service });
      await api.register(savedViewsRoutes, { savedViews: deps.savedViews });
      await api.register(ingestRoutes, {
        ingest: deps.ingest,
        heartbeats: deps.heartbeats,
        maxBodyBytes: deps.config.ingest.maxBodyBytes,
        maxBatch: deps.config.ingest.maxBatch,
      });
      await api.register(otlpRoutes, {
        otlp: deps.otlp,
        maxBodyBytes: deps.config.ingest.maxBodyBytes,
        maxBatch: deps.config.ingest.maxBatch,
      });
    },
    { prefix: API_PREFIX },
  );
  await app.register(dashboardPlugin, { distDir: deps.dashboardDir ?? dashboardDistDir });

  return app;
}

/** Fastify's types take a hop count only as a function: trust the `hops` nearest proxies. */
function trustProxyOption(value: TrustProxy): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === "number" ? (_address, hop) => hop < value : value;
}
