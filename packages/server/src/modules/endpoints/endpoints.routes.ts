// Routes of /apps/{app_slug}/endpoints: the app's endpoint catalogue.
import {
  CreateEndpointBodySchema,
  EndpointSchema,
  MessageSchema,
  UpdateEndpointBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, AppParams, AppScopeQuery, appScopeOf, withParams } from "../access/index.js";
import type { EndpointsService } from "./endpoints.service.js";

const EndpointParams = withParams(AppParams, {
  endpoint_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});

export async function endpointsRoutes(
  app: App,
  { endpoints }: { endpoints: EndpointsService },
): Promise<void> {
  app.get(
    "/apps/:app_slug/endpoints",
    {
      config: { access: access.app("project:read") },
      schema: {
        operationId: "listEndpoints",
        tags: ["endpoints"],
        summary: "List an app's endpoints",
        description: "Declared and discovered endpoints, by path then method.",
        params: AppParams,
        querystring: AppScopeQuery,
        response: { 200: Type.Array(EndpointSchema) },
      },
    },
    async (request) => endpoints.list(appScopeOf(request)),
  );

  app.post(
    "/apps/:app_slug/endpoints",
    {
      config: { access: access.app("endpoints:write") },
      schema: {
        operationId: "createEndpoint",
        tags: ["endpoints"],
        summary: "Declare an endpoint",
        description: "`(method, path)` is unique per app (409). The method is stored upper-case.",
        params: AppParams,
        querystring: AppScopeQuery,
        body: CreateEndpointBodySchema,
        response: { 201: EndpointSchema, ...problemResponses(422) },
      },
    },
    async (request, reply) => {
      const scope = appScopeOf(request);
      return reply.code(201).send(await endpoints.create(scope, request.body));
    },
  );

  app.get(
    "/apps/:app_slug/endpoints/:endpoint_id",
    {
      config: { access: access.app("project:read") },
      schema: {
        operationId: "getEndpoint",
        tags: ["endpoints"],
        summary: "Get an endpoint",
        params: EndpointParams,
        querystring: AppScopeQuery,
        response: { 200: EndpointSchema, ...problemResponses(422) },
      },
    },
    async (request) => {
      const scope = appScopeOf(request);
      return endpoints.get(scope, request.params.endpoint_id);
    },
  );

  app.patch(
    "/apps/:app_slug/endpoints/:endpoint_id",
    {
      config: { access: access.app("endpoints:write") },
      schema: {
        operationId: "updateEndpoint",
        tags: ["endpoints"],
        summary: "Update an endpoint",
        description: "`is_active: false` switches it off; traffic does not switch it back on.",
        params: EndpointParams,
        querystring: AppScopeQuery,
        body: UpdateEndpointBodySchema,
        response: { 200: EndpointSchema, ...problemResponses(422) },
      },
    },
    async (request) => {
      const scope = appScopeOf(request);
      return endpoints.update(scope, request.params.endpoint_id, request.body);
    },
  );

  app.delete(
    "/apps/:app_slug/endpoints/:endpoint_id",
    {
      config: { access: access.app("endpoints:write") },
      schema: {
        operationId: "deleteEndpoint",
        tags: ["endpoints"],
        summary: "Remove an endpoint from the catalogue",
        description: "Traffic that still reaches it registers it again.",
        params: EndpointParams,
        querystring: AppScopeQuery,
        response: { 200: MessageSchema, ...problemResponses(422) },
      },
    },
    async (request) => {
      const scope = appScopeOf(request);
      await endpoints.remove(scope, request.params.endpoint_id);
      return { message: "Endpoint deleted" };
    },
  );
}
