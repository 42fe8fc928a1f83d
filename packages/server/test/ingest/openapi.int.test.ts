// The ingest routes as /api/v1/docs presents them: operation ids, the one tag, API-key security,
// every record field including the extensions, and each documented answer.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";

interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  security: Record<string, string[]>[];
  parameters: { in: string; name: string }[];
  requestBody: { content: Record<string, { schema: { properties: Record<string, { items: unknown }> } }> };
  responses: Record<string, unknown>;
}

describe("ingest in the OpenAPI document", () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const operation = async (path: string): Promise<Operation> => {
    const document = (await ctx.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json<{
      paths: Record<string, { post: Operation }>;
    }>();
    const found = document.paths[path]?.post;
    if (found === undefined) throw new Error(`${path} is not documented`);
    return found;
  };
  const recordFields = (op: Operation, member: string) => {
    const items = op.requestBody.content["application/json"]?.schema.properties[member]?.items as {
      properties: Record<string, unknown>;
      required: string[];
    };
    return { fields: Object.keys(items.properties).sort(), required: [...items.required].sort() };
  };

  it("documents POST /ingest/requests with every field, the extensions and each answer", async () => {
    const op = await operation("/api/v1/ingest/requests");
    expect(op).toMatchObject({ operationId: "ingestRequests", tags: ["ingest"], security: [{ apiKey: [] }] });
    expect(op.parameters.map((p) => [p.in, p.name])).toEqual([["header", "idempotency-key"]]);
    expect(recordFields(op, "requests")).toEqual({
      fields: [
        "app_id",
        "base_url",
        "consumer_group",
        "consumer_id",
        "consumer_name",
        "environment",
        "ip_address",
        "method",
        "path",
        "project_slug",
        "request_headers",
        "request_payload",
        "request_size",
        "response_headers",
        "response_payload",
        "response_size",
        "response_time_ms",
        "route",
        "scheme",
        "span_id",
        "status_code",
        "timestamp",
        "trace_id",
        "user_agent",
        "validation_errors",
      ],
      // `environment` defaults to production, as on spans.
      required: ["app_id", "method", "path", "response_time_ms", "status_code", "timestamp"],
    });
    expect(Object.keys(op.responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "409",
      "413",
      "415",
      "422",
      "429",
      "503",
    ]);
  });

  it("documents POST /ingest/logs likewise", async () => {
    const op = await operation("/api/v1/ingest/logs");
    expect(op).toMatchObject({ operationId: "ingestLogs", tags: ["ingest"], security: [{ apiKey: [] }] });
    expect(recordFields(op, "logs").required).toEqual(["app_id", "level", "message", "timestamp"]);
    expect(recordFields(op, "logs").fields).toEqual(
      expect.arrayContaining([
        "attributes",
        "endpoint_method",
        "endpoint_path",
        "trace_id",
        "span_id",
        "consumer_id",
        "consumer_name",
        "consumer_group",
      ]),
    );
  });

  it("documents POST /ingest/traces, the APILens SDKs' span path", async () => {
    const op = await operation("/api/v1/ingest/traces");
    expect(op).toMatchObject({ operationId: "ingestSpans", tags: ["ingest"], security: [{ apiKey: [] }] });
    expect(recordFields(op, "spans")).toEqual({
      fields: [
        "app_id",
        "attributes",
        "duration_ms",
        "environment",
        "kind",
        "name",
        "parent_span_id",
        "project_slug",
        "service_name",
        "span_id",
        "status",
        "status_code",
        "timestamp",
        "trace_id",
      ],
      required: ["app_id", "span_id", "timestamp", "trace_id"],
    });
  });

  it("documents the 429 of the per-project and per-key ingest limits on every ingest and OTLP route", async () => {
    for (const path of [
      "/api/v1/ingest/requests",
      "/api/v1/ingest/logs",
      "/api/v1/ingest/traces",
      "/api/v1/otlp/v1/traces",
      "/api/v1/otlp/v1/logs",
    ]) {
      const op = await operation(path);
      expect(op.responses["429"], path).toMatchObject({
        description: expect.stringContaining("rate_limited"),
      });
    }
  });
});
