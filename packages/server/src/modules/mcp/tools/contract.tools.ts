// The live API contract in an agent's terms, through the contract service the …/api routes call
// (with `contract:read`): the inferred operations compactly, the change log with the consumers each
// change affects, and the declared-vs-observed report.
import { CONTRACT_LIMITS, type ContractDocumentQuery } from "@sightline/contracts";
import { Type } from "typebox";
import { AppError } from "../../../errors.js";
import type { ProjectScope } from "../../access/index.js";
import type { McpServices } from "../services.js";
import { projectTool } from "../tool.js";
import { nextCursor, pageOf } from "../window.js";
import { CursorArg, limitArg, ProjectArg } from "./params.js";

const AppArg = Type.String({ minLength: 1, maxLength: 100, description: "The app's slug." });
const ContractEnvironmentArg = Type.String({
  minLength: 1,
  maxLength: 100,
  description: "The environment whose traffic the contract was inferred from (e.g. production).",
});
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

type Json = Record<string, unknown>;
const objectOf = (value: unknown): Json =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};

/** The inferred OpenAPI document (latest, or `version`) of one app in one environment. */
export async function contractDocument(
  services: McpServices,
  scope: ProjectScope,
  query: Omit<ContractDocumentQuery, "format">,
): Promise<Json> {
  const answer = await services.contract.document(scope, { ...query, format: "json" });
  if (answer.format !== "json") throw new Error("the contract service answered YAML to a JSON query");
  return answer.document as Json;
}

/** One operation as an agent scans it: parameters by place and the response status codes. */
function operationRow(method: string, path: string, operation: Json) {
  const parameters = (Array.isArray(operation.parameters) ? operation.parameters : []).map((raw) => {
    const parameter = objectOf(raw);
    return {
      name: String(parameter.name),
      in: String(parameter.in),
      required: parameter.required === true,
      type: String(objectOf(parameter.schema).type ?? "any"),
    };
  });
  return {
    method: method.toUpperCase(),
    path,
    parameters,
    has_request_body: operation.requestBody !== undefined,
    status_codes: Object.keys(objectOf(operation.responses)).sort(),
  };
}

export const getApiContract = projectTool({
  target: "project",
  permission: "contract:read",
  name: "get_api_contract",
  title: "The API contract inferred from traffic",
  description:
    "The OpenAPI contract Sightline inferred from an app's traffic in one environment, compactly: " +
    "every operation (method, path template) with its parameters (name, in, required, type), " +
    "whether it takes a request body, and the response status codes seen. Give `method` and `path` " +
    "(the template, e.g. /v1/orders/{id}) to get that operation's full request and response schemas. " +
    "The whole document is the resource sightline://projects/{project}/apps/{app}/contract.",
  input: Type.Object(
    {
      project: ProjectArg,
      app: AppArg,
      environment: ContractEnvironmentArg,
      version: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 1_000_000,
          description: "A stored version; default the latest.",
        }),
      ),
      method: Type.Optional(
        Type.String({ maxLength: 16, description: "With `path`: one operation's schemas (e.g. GET)." }),
      ),
      path: Type.Optional(
        Type.String({ maxLength: 2048, description: "With `method`: the operation's path template." }),
      ),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const document = await contractDocument(services, scope, {
      app: args.app,
      environment: args.environment,
      ...(args.version === undefined ? {} : { version: args.version }),
    });
    const paths = objectOf(document.paths);
    // The stored version's number (the document's info.version names no number).
    const version =
      args.version ??
      (await services.contract.versions(scope, { app: args.app, environment: args.environment }))[0]
        ?.version ??
      null;
    if (args.method !== undefined || args.path !== undefined) {
      if (args.method === undefined || args.path === undefined) {
        throw new AppError("validation_error", "Invalid request: give both method and path, or neither.", {
          errors: [{ pointer: args.method === undefined ? "/method" : "/path", message: "is required" }],
        });
      }
      const operation = objectOf(paths[args.path])[args.method.toLowerCase()];
      if (operation === undefined) {
        throw new AppError(
          "not_found",
          `No operation ${args.method.toUpperCase()} ${args.path} in the contract of app "${args.app}".`,
        );
      }
      const body = objectOf(operation);
      return {
        app: args.app,
        environment: args.environment,
        version,
        operation: {
          ...operationRow(args.method.toLowerCase(), args.path, body),
          parameters: body.parameters ?? [],
          request_body: body.requestBody ?? null,
          responses: body.responses ?? {},
        },
      };
    }
    const operations = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(objectOf(item))
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => operationRow(method, path, objectOf(operation))),
    );
    return {
      app: args.app,
      environment: args.environment,
      version,
      operation_count: operations.length,
      operations,
    };
  },
});

export const listContractChanges = projectTool({
  target: "project",
  permission: "contract:read",
  name: "list_contract_changes",
  title: "Contract changes and the consumers they affect",
  description:
    "Changes between versions of the inferred contracts (newest first): breaking or not, the kind " +
    "(e.g. response_field_removed), the operation and place, and the consumers whose calls in the " +
    "look-back window used what changed, with their request counts (at most `consumers_per_change`, " +
    "the total always given). Narrow by app, environment, breaking. Pages with `next_cursor`.",
  input: Type.Object(
    {
      project: ProjectArg,
      app: Type.Optional(AppArg),
      environment: Type.Optional(ContractEnvironmentArg),
      breaking: Type.Optional(Type.Boolean({ description: "Only breaking (true) or non-breaking (false)." })),
      consumers_per_change: Type.Optional(
        limitArg(10, CONTRACT_LIMITS.consumersPerChange, "consumers per change"),
      ),
      limit: Type.Optional(limitArg(20, CONTRACT_LIMITS.pageSize, "changes")),
      cursor: Type.Optional(CursorArg),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const pageSize = args.limit ?? 20;
    const page = pageOf(args.cursor);
    const answer = await services.contract.changes(scope, {
      ...(args.app === undefined ? {} : { app: args.app }),
      ...(args.environment === undefined ? {} : { environment: args.environment }),
      ...(args.breaking === undefined ? {} : { breaking: args.breaking }),
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    const shown = args.consumers_per_change ?? 10;
    return {
      items: answer.data.map((change) => ({
        id: change.id,
        at: change.created_at,
        app: change.app,
        environment: change.environment,
        version: change.version,
        class: change.breaking ? "breaking" : "non-breaking",
        kind: change.kind,
        operation: `${change.method} ${change.path}`,
        location: change.location,
        ...(change.status === null ? {} : { status: change.status }),
        ...(change.field === null ? {} : { field: change.field }),
        detail: change.detail,
        affected_consumers_total: change.consumers_total,
        affected_consumers: change.consumers.slice(0, shown).map((consumer) => ({
          consumer_id: consumer.consumer_id,
          consumer_name: consumer.consumer_name,
          requests: consumer.requests,
        })),
        window_days: change.window_days,
      })),
      total_count: answer.total,
      next_cursor: nextCursor({ page, page_size: pageSize, total_count: answer.total }),
    };
  },
});

export const contractReport = projectTool({
  target: "project",
  permission: "contract:read",
  name: "contract_report",
  title: "Declared contract versus observed traffic",
  description:
    "Compares the app's declared (uploaded) OpenAPI document with its traffic in one environment: " +
    "undocumented operations (seen, not declared) and unused ones (declared, not called in `days`) " +
    "with request counts, and per declared operation the sampled requests and responses failing its " +
    "schemas with the failing JSON pointer and keyword (never the value).",
  input: Type.Object(
    {
      project: ProjectArg,
      app: AppArg,
      environment: ContractEnvironmentArg,
      days: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 90, description: "Look-back window in days (default 7)." }),
      ),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const report = await services.contract.report(scope, {
      app: args.app,
      environment: args.environment,
      ...(args.days === undefined ? {} : { days: args.days }),
    });
    return {
      app: report.app,
      environment: report.environment,
      window_days: report.window_days,
      undocumented: report.undocumented,
      unused: report.unused,
      conformance: report.conformance.map((row) => ({
        operation: `${row.method} ${row.path}`,
        sampled_requests: row.sampled_requests,
        failing_requests: row.failing_requests,
        sampled_responses: row.sampled_responses,
        failing_responses: row.failing_responses,
        failures: row.failures,
      })),
    };
  },
});
