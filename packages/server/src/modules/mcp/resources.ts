// MCP resources: each reachable project's alert rules (read through the rules service with
// `alerts:read`, as GET /projects/{slug}/alerts is), an app's inferred OpenAPI contract (through
// the contract service with `contract:read`, as GET …/api/contract is), and this server's own
// OpenAPI document.
import { ErrorCode, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../../errors.js";
import type { Principal } from "../access/index.js";
import type { McpServices } from "./services.js";
import { contractDocument, ruleRow } from "./tools/index.js";

const ALERT_RULES = /^sightline:\/\/projects\/([^/]{1,200})\/alert-rules$/;
const CONTRACT = /^sightline:\/\/projects\/([^/]{1,200})\/apps\/([^/?]{1,200})\/contract(?:\?(.{0,600}))?$/;
const OPENAPI_URI = "sightline://openapi";
/** The environment an app's contract resource shows when its URI names none. */
const DEFAULT_CONTRACT_ENVIRONMENT = "production";

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "sightline://projects/{project}/alert-rules",
    name: "alert-rules",
    title: "Alert rules of a project",
    description: "Every alert rule of the project with its condition and current state (JSON).",
    mimeType: "application/json",
  },
  {
    uriTemplate: "sightline://projects/{project}/apps/{app}/contract{?environment,version}",
    name: "api-contract",
    title: "Inferred OpenAPI contract of an app",
    description:
      "The OpenAPI 3.1 document inferred from the app's traffic in `environment` (default " +
      `${DEFAULT_CONTRACT_ENVIRONMENT}), the latest version or \`version\` (JSON).`,
    mimeType: "application/json",
  },
];

/** The MCP "resource not found" error code (spec: resources, error handling). */
const RESOURCE_NOT_FOUND = -32002;

export async function listResources(services: McpServices, principal: Principal) {
  const projects = await services.projects.listProjects(
    principal.userId,
    principal.grant?.projectIds ?? null,
  );
  return [
    ...projects.map((project) => ({
      uri: `sightline://projects/${project.slug}/alert-rules`,
      name: `${project.slug}-alert-rules`,
      title: `Alert rules of ${project.name}`,
      description: `Alert rules of project "${project.slug}" with their state.`,
      mimeType: "application/json",
    })),
    ...(services.openApi === undefined
      ? []
      : [
          {
            uri: OPENAPI_URI,
            name: "sightline-openapi",
            title: "Sightline API (OpenAPI)",
            description: "The OpenAPI 3 document of this Sightline server's REST API.",
            mimeType: "application/json",
          },
        ]),
  ];
}

export async function readResource(
  services: McpServices,
  principal: Principal,
  uri: string,
): Promise<ReadResourceResult> {
  const started = performance.now();
  const match = ALERT_RULES.exec(uri);
  const contract = CONTRACT.exec(uri);
  const project =
    match !== null
      ? decodeURIComponent(match[1] as string)
      : contract !== null
        ? decodeURIComponent(contract[1] as string)
        : null;
  const kind =
    match !== null
      ? "alert-rules"
      : contract !== null
        ? "api-contract"
        : uri === OPENAPI_URI
          ? "openapi"
          : "unknown";
  const log = (outcome: string) =>
    services.logger.info(
      {
        mcp_resource: kind,
        project,
        user_id: principal.userId,
        token_prefix: principal.grant?.prefix ?? null,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        outcome,
      },
      "mcp resource read",
    );
  try {
    let text: string;
    if (contract !== null && project !== null) {
      const scope = await services.access.resolveProject(principal, project, "contract:read");
      const query = new URLSearchParams(contract[3] ?? "");
      const version = query.get("version");
      if (version !== null && !/^[1-9][0-9]{0,6}$/.test(version)) {
        throw new McpError(ErrorCode.InvalidParams, "version must be a positive integer.");
      }
      const environment = query.get("environment") ?? DEFAULT_CONTRACT_ENVIRONMENT;
      if (environment === "" || environment.length > 100) {
        throw new McpError(ErrorCode.InvalidParams, "environment must be 1 to 100 characters.");
      }
      const document = await contractDocument(services, scope, {
        app: decodeURIComponent(contract[2] as string),
        environment,
        ...(version === null ? {} : { version: Number(version) }),
      });
      text = JSON.stringify(document);
    } else if (project !== null) {
      const scope = await services.access.resolveProject(principal, project, "alerts:read");
      text = JSON.stringify({ project, rules: (await services.rules.list(scope)).map(ruleRow) });
    } else if (uri === OPENAPI_URI && services.openApi !== undefined) {
      text = JSON.stringify(services.openApi());
    } else {
      throw new McpError(RESOURCE_NOT_FOUND, `No resource ${uri.slice(0, 300)}.`);
    }
    log("ok");
    return { contents: [{ uri, mimeType: "application/json", text }] };
  } catch (error) {
    log("error");
    if (error instanceof AppError) {
      throw new McpError(
        error.code === "not_found" ? RESOURCE_NOT_FOUND : ErrorCode.InvalidRequest,
        error.detail,
      );
    }
    throw error;
  }
}
