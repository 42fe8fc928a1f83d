// MCP resources: each reachable project's alert rules (read through the rules service with
// `alerts:read`, as GET /projects/{slug}/alerts is), and this server's own OpenAPI document.
// The project's API contract has no store yet, so it is not offered.
import { ErrorCode, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../../errors.js";
import type { Principal } from "../access/index.js";
import type { McpServices } from "./services.js";
import { ruleRow } from "./tools/index.js";

const ALERT_RULES = /^sightline:\/\/projects\/([^/]{1,200})\/alert-rules$/;
const OPENAPI_URI = "sightline://openapi";

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "sightline://projects/{project}/alert-rules",
    name: "alert-rules",
    title: "Alert rules of a project",
    description: "Every alert rule of the project with its condition and current state (JSON).",
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
  const project = match === null ? null : decodeURIComponent(match[1] as string);
  const log = (outcome: string) =>
    services.logger.info(
      {
        mcp_resource: match === null ? (uri === OPENAPI_URI ? "openapi" : "unknown") : "alert-rules",
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
    if (project !== null) {
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
