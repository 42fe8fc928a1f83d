// Routes of /apps/{app_slug}/endpoints: the app's endpoint catalogue.
import {
  CreateEndpointBodySchema,
  EndpointSchema,
  MessageSchema,
  UpdateEndpointBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { bearerSecurity, problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { AppParams, AppScopeQuery, appIdFor } from "../apps/app-scope.js";
import type { AppsService } from "../apps/apps.service.js";
import type { EndpointsService } from "./endpoints.service.js";

const EndpointParams = Type.Object({
  app_slug: Type.String({ maxLength: 200, examples: ["checkout-api"] }),
  endpoint_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});

export async function endpointsRoutes(
  app: App,
  { apps, endpoints }: { apps: AppsService; endpoints: EndpointsService },
): Promise<void> {
  app.addHook("onRequest", app.authenticate);
  const common = { security: bearerSecurity };

  app.get(
    "/apps/:app_slug/endpoints",
    {
      schema: {
        ...common,
        operationId: "listEndpoints",
        tags: ["endpoints"],
        summary: "List an app's endpoints",
        description: "Declared and discovered endpoints, by path then method.",
        params: AppParams,
        querystring: AppScopeQuery,
        response: { 200: Type.Array(EndpointSchema), ...problemResponses(401, 404, 409) },
      },
    },
    async (request) => endpoints.list(await appIdFor(apps, request, "read")),
  );

  app.post(
    "/apps/:app_slug/endpoints",
    {
      schema: {
        ...common,
        operationId: "createEndpoint",
        tags: ["endpoints"],
        summary: "Declare an endpoint",
        description: "`(method, path)` is unique per app (409). The method is stored upper-case.",
        params: AppParams,
        querystring: AppScopeQuery,
        body: CreateEndpointBodySchema,
        response: { 201: EndpointSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const appId = await appIdFor(apps, request, "write");
      return reply.code(201).send(await endpoints.create(appId, request.body));
    },
  );

  app.get(
    "/apps/:app_slug/endpoints/:endpoint_id",
    {
      schema: {
        ...common,
        operationId: "getEndpoint",
        tags: ["endpoints"],
        summary: "Get an endpoint",
        params: EndpointParams,
        querystring: AppScopeQuery,
        response: { 200: EndpointSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const appId = await appIdFor(apps, request, "read");
      return endpoints.get(appId, request.params.endpoint_id);
    },
  );

  app.patch(
    "/apps/:app_slug/endpoints/:endpoint_id",
    {
      schema: {
        ...common,
        operationId: "updateEndpoint",
        tags: ["endpoints"],
        summary: "Update an endpoint",
        description: "`is_active: false` switches it off; traffic does not switch it back on.",
        params: EndpointParams,
        querystring: AppScopeQuery,
        body: UpdateEndpointBodySchema,
        response: { 200: EndpointSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const appId = await appIdFor(apps, request, "write");
      return endpoints.update(appId, request.params.endpoint_id, request.body);
    },
  );

  app.delete(
    "/apps/:app_slug/endpoints/:endpoint_id",
    {
      schema: {
        ...common,
        operationId: "deleteEndpoint",
        tags: ["endpoints"],
        summary: "Remove an endpoint from the catalogue",
        description: "Traffic that still reaches it registers it again.",
        params: EndpointParams,
        querystring: AppScopeQuery,
        response: { 200: MessageSchema, ...problemResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const appId = await appIdFor(apps, request, "write");
      await endpoints.remove(appId, request.params.endpoint_id);
      return { message: "Endpoint deleted" };
    },
  );
}
