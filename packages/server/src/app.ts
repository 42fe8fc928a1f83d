// The composition root's second half: builds the Fastify app on Deps — plugins first, then
// one module per area under /api/v1. It never listens; main.ts and tests decide that.
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyBaseLogger, LogController } from "fastify";
import type { TrustProxy } from "./config/index.js";
import type { Deps } from "./deps.js";
import { registerContentEncodingGuard } from "./http/content-encoding.js";
import { errorsPlugin, sendProblem } from "./http/errors.plugin.js";
import { registerGracefulClose } from "./http/graceful-close.js";
import { API_PREFIX, openApiPlugin } from "./http/openapi.plugin.js";
import { REQUEST_ID_HEADER, requestIdFor } from "./http/request-id.js";
import type { App } from "./http/types.js";
import { validatorCompiler } from "./http/validation.js";
import { metaRoutes } from "./modules/meta/meta.routes.js";

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

  await app.register(
    async (api: App) => {
      await api.register(metaRoutes, { health: deps.health });
    },
    { prefix: API_PREFIX },
  );

  return app;
}

/** Fastify's types take a hop count only as a function: trust the `hops` nearest proxies. */
function trustProxyOption(value: TrustProxy): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === "number" ? (_address, hop) => hop < value : value;
}
