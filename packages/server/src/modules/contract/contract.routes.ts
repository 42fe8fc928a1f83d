// Routes of the live API contract under /projects/{slug}/api: the inferred document per app and
// environment (JSON or YAML), its versions and diffs, the change log with affected consumers,
// the declared document (upload, read, delete), the declared-vs-observed report and the
// differences of the inferred contract from the declared document. Thin.
import {
  CONTRACT_LIMITS,
  ContractAlertRuleSchema,
  ContractChangeSchema,
  CreateContractAlertRuleBodySchema,
  ContractChangesPageSchema,
  ContractChangesQuerySchema,
  ContractDiffQuerySchema,
  ContractDiffSchema,
  ContractDocumentQuerySchema,
  ContractReportQuerySchema,
  ContractReportSchema,
  ContractScopeQuerySchema,
  ContractVersionSchema,
  DeclaredDiffQuerySchema,
  DeclaredDiffSchema,
  DeclaredDocumentQuerySchema,
  DeclaredDocumentSchema,
  MessageSchema,
  OpenApiDocumentSchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf, withParams } from "../access/index.js";
import type { ContractAlerts } from "./contract-alerts.service.js";
import type { ContractService } from "./contract.service.js";

const TAG = "api-contract";
const RuleParams = withParams(ProjectParams, {
  rule_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});
const ChangeParams = withParams(ProjectParams, {
  change_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});
/** Media types a declared document may be uploaded as; all are read as text. */
const DOCUMENT_TYPES = [
  "application/json",
  "application/yaml",
  "application/x-yaml",
  "text/yaml",
  "text/plain",
];

export async function contractRoutes(
  app: App,
  { contract, alerts }: { contract: ContractService; alerts: ContractAlerts },
): Promise<void> {
  app.post(
    "/projects/:project_slug/api/alert-rules",
    {
      config: { access: access.project("contract:write") },
      schema: {
        operationId: "createApiContractAlertRule",
        tags: [TAG],
        summary: "Create a contract-change alert rule",
        description:
          "When inference stores a new version of an app's contract whose changes match the rule (the " +
          "project, one app, one environment; `breaking` versions only or `all`), each channel is " +
          "notified (e-mail, signed webhook with event `contract.change`, Slack) with a link to the change.",
        params: ProjectParams,
        body: CreateContractAlertRuleBodySchema,
        response: { 201: ContractAlertRuleSchema, ...problemResponses(422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await alerts.createRule(projectScopeOf(request), request.body)),
  );

  app.get(
    "/projects/:project_slug/api/alert-rules",
    {
      config: { access: access.project("contract:read") },
      schema: {
        operationId: "listApiContractAlertRules",
        tags: [TAG],
        summary: "List contract-change alert rules",
        params: ProjectParams,
        response: { 200: Type.Array(ContractAlertRuleSchema) },
      },
    },
    async (request) => alerts.listRules(projectScopeOf(request)),
  );

  app.delete(
    "/projects/:project_slug/api/alert-rules/:rule_id",
    {
      config: { access: access.project("contract:write") },
      schema: {
        operationId: "deleteApiContractAlertRule",
        tags: [TAG],
        summary: "Delete a contract-change alert rule",
        params: RuleParams,
        response: { 200: MessageSchema, ...problemResponses(404, 422) },
      },
    },
    async (request) => {
      await alerts.deleteRule(projectScopeOf(request), request.params.rule_id);
      return { message: "Contract alert rule deleted" };
    },
  );

  app.get(
    "/projects/:project_slug/api/contract",
    {
      config: { access: access.project("contract:read") },
      schema: {
        operationId: "getApiContract",
        tags: [TAG],
        summary: "Get the inferred OpenAPI document of an app in an environment",
        description:
          "The OpenAPI 3.1 document Sightline inferred from the app's traffic in the environment (the " +
          "latest version, or `version`), as JSON or, with `format=yaml`, as YAML (application/yaml).",
        params: ProjectParams,
        querystring: ContractDocumentQuerySchema,
        response: {
          200: Type.Union([
            OpenApiDocumentSchema,
            Type.String({ description: "The document as YAML text (format=yaml)." }),
          ]),
          ...problemResponses(404, 422),
        },
      },
    },
    async (request, reply) => {
      const answer = await contract.document(projectScopeOf(request), request.query);
      if (answer.format === "yaml")
        return reply.type("application/yaml; charset=utf-8").serializer(String).send(answer.text);
      return answer.document;
    },
  );

  app.get(
    "/projects/:project_slug/api/contract/versions",
    {
      config: { access: access.project("contract:read") },
      schema: {
        operationId: "listApiContractVersions",
        tags: [TAG],
        summary: "List the versions of an app's inferred contract",
        description: "Newest first. A version is made only when the contract's shape changes.",
        params: ProjectParams,
        querystring: ContractScopeQuerySchema,
        response: { 200: Type.Array(ContractVersionSchema), ...problemResponses(404, 422) },
      },
    },
    async (request) => contract.versions(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/api/contract/diff",
    {
      config: { access: access.project("contract:read") },
      schema: {
        operationId: "diffApiContractVersions",
        tags: [TAG],
        summary: "Compare two versions of an app's inferred contract",
        description: "The changes from `from` to `to` (the latest by default), classified by the rule table.",
        params: ProjectParams,
        querystring: ContractDiffQuerySchema,
        response: { 200: ContractDiffSchema, ...problemResponses(404, 422) },
      },
    },
    async (request) => contract.diff(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/api/changes",
    {
      config: { access: access.project("contract:read") },
      schema: {
        operationId: "listApiContractChanges",
        tags: [TAG],
        summary: "List contract changes with the consumers they affect",
        description: "Newest first, filtered by app, environment and class (breaking or not).",
        params: ProjectParams,
        querystring: ContractChangesQuerySchema,
        response: { 200: ContractChangesPageSchema, ...problemResponses(404, 422) },
      },
    },
    async (request) => contract.changes(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/api/changes/:change_id",
    {
      config: { access: access.project("contract:read") },
      schema: {
        operationId: "getApiContractChange",
        tags: [TAG],
        summary: "Get one contract change",
        params: ChangeParams,
        response: { 200: ContractChangeSchema, ...problemResponses(404, 422) },
      },
    },
    async (request) => contract.change(projectScopeOf(request), request.params.change_id),
  );

  await app.register(async (declared: App) => {
    // The document is read as text whatever it is sent as, so YAML and JSON take one path and
    // its size is the bytes received.
    declared.removeAllContentTypeParsers();
    declared.addContentTypeParser(
      DOCUMENT_TYPES,
      { parseAs: "string", bodyLimit: CONTRACT_LIMITS.declaredDocumentBytes },
      (_request, body, done) => done(null, body),
    );
    declared.post(
      "/projects/:project_slug/api/declared",
      {
        config: { access: access.project("contract:write") },
        bodyLimit: CONTRACT_LIMITS.declaredDocumentBytes,
        schema: {
          operationId: "uploadDeclaredApiDocument",
          tags: [TAG],
          summary: "Upload the declared OpenAPI document of an app",
          description:
            "An OpenAPI 3.0 or 3.1 document as JSON or YAML (application/json, application/yaml, " +
            `text/yaml), at most ${CONTRACT_LIMITS.declaredDocumentBytes} bytes. It replaces the app's ` +
            "previous one. A document that is not valid OpenAPI is refused with 422 naming its first problem.",
          params: ProjectParams,
          querystring: DeclaredDocumentQuerySchema,
          body: Type.String({ description: "The document's text.", examples: ["openapi: 3.1.0\n…"] }),
          response: { 200: DeclaredDocumentSchema, ...problemResponses(404, 413, 415, 422) },
        },
      },
      async (request) => contract.putDeclared(projectScopeOf(request), request.query.app, request.body),
    );
  });

  app.get(
    "/projects/:project_slug/api/declared",
    {
      config: { access: access.project("contract:read") },
      schema: {
        operationId: "getDeclaredApiDocument",
        tags: [TAG],
        summary: "Get the declared OpenAPI document of an app",
        params: ProjectParams,
        querystring: DeclaredDocumentQuerySchema,
        response: { 200: DeclaredDocumentSchema, ...problemResponses(404, 422) },
      },
    },
    async (request) => contract.getDeclared(projectScopeOf(request), request.query.app),
  );

  app.delete(
    "/projects/:project_slug/api/declared",
    {
      config: { access: access.project("contract:write") },
      schema: {
        operationId: "deleteDeclaredApiDocument",
        tags: [TAG],
        summary: "Delete the declared OpenAPI document of an app",
        params: ProjectParams,
        querystring: DeclaredDocumentQuerySchema,
        response: { 200: MessageSchema, ...problemResponses(404, 422) },
      },
    },
    async (request) => {
      await contract.deleteDeclared(projectScopeOf(request), request.query.app);
      return { message: "Declared document deleted" };
    },
  );

  app.get(
    "/projects/:project_slug/api/declared/diff",
    {
      config: { access: access.project("contract:read") },
      schema: {
        operationId: "diffDeclaredApiDocument",
        tags: [TAG],
        summary: "Compare the inferred contract with the declared document",
        description:
          "How an inferred version (the latest by default) departs from the app's declared document, " +
          "classified by the contract's rule table, breaking first, each with the consumers it affects: " +
          "undeclared operations, parameters, statuses, media types and fields; declared required fields " +
          "the traffic leaves out; types, formats and path parameters the declaration does not accept; " +
          "enum values it does not list. What the declaration allows but traffic does not use is no " +
          "difference (unused operations are the report's).",
        params: ProjectParams,
        querystring: DeclaredDiffQuerySchema,
        response: { 200: DeclaredDiffSchema, ...problemResponses(404, 422) },
      },
    },
    async (request) => contract.declaredDiff(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/api/report",
    {
      config: { access: access.project("contract:read") },
      schema: {
        operationId: "getApiContractReport",
        tags: [TAG],
        summary: "Compare the declared document with observed traffic",
        description:
          "Undocumented operations (seen, not declared), unused ones (declared, not seen in `days`) and, " +
          "per declared operation, the share of sampled requests and responses (up to 200 per operation, " +
          "from the last 24 hours) violating its schemas with the failing JSON pointer and keyword (never " +
          "the value).",
        params: ProjectParams,
        querystring: ContractReportQuerySchema,
        response: { 200: ContractReportSchema, ...problemResponses(404, 422) },
      },
    },
    async (request) => contract.report(projectScopeOf(request), request.query),
  );
}
