// Routes of the meta tag: health and the OpenAPI document.
import { HealthSchema, ProblemSchema } from "@sightline/contracts";
import { Type } from "typebox";
import { AppError } from "../../errors.js";
import type { App } from "../../http/types.js";
import type { HealthService } from "./health.service.js";
import { access } from "../access/index.js";

export async function metaRoutes(app: App, options: { health: HealthService }): Promise<void> {
  app.get(
    "/health",
    {
      config: { access: access.public },
      schema: {
        operationId: "getHealth",
        tags: ["meta"],
        summary: "Health of the server and both stores",
        description:
          "200 when both stores answer; 503 (problem+json with `checks`) naming the store that does not.",
        response: { 200: HealthSchema, 503: ProblemSchema },
      },
    },
    async () => {
      const health = await options.health.check();
      if (health.status !== "healthy") {
        const failing = Object.entries(health.checks)
          .filter(([, status]) => status !== "ok")
          .map(([name]) => name);
        throw new AppError("service_unavailable", `Store not answering: ${failing.join(", ")}.`, {
          headers: { "retry-after": "5" },
          extensions: { checks: health.checks, version: health.version },
        });
      }
      return health;
    },
  );

  app.get(
    "/openapi.json",
    {
      config: { access: access.public },
      schema: {
        operationId: "getOpenApiDocument",
        tags: ["meta"],
        summary: "The OpenAPI 3.1 document of this API",
        response: { 200: Type.Object({}, { additionalProperties: true }) },
      },
    },
    async () => app.swagger(),
  );
}
