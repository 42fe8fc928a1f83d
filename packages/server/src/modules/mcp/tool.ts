// What an MCP tool is here: a name, a description an agent reads, a TypeBox input schema (sent
// as the tool's JSON Schema and checked before the tool runs), the permission it needs in the
// project it names, and a function of the authorized scope that answers compact JSON.
import type { Permission } from "@sightline/contracts";
import type { Static, TObject } from "typebox";
import type { Principal, ProjectScope } from "../access/index.js";
import type { McpServices } from "./services.js";

/** What a tool acts on: the caller's own account (listing projects) or one named project. */
export type ToolTarget = "user" | "project";

interface ToolBase<S extends TObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: S;
}

/** A tool over the caller's account: it sees every project their token reaches. */
export interface UserTool<S extends TObject = TObject> extends ToolBase<S> {
  readonly target: "user";
  run(call: { principal: Principal; args: Static<S>; services: McpServices }): Promise<unknown>;
}

/** A tool over one project, named by its required `project` argument and checked for `permission`. */
export interface ProjectTool<S extends TObject = TObject> extends ToolBase<S> {
  readonly target: "project";
  readonly permission: Permission;
  run(call: { scope: ProjectScope; args: Static<S>; services: McpServices }): Promise<unknown>;
}

export type McpTool = UserTool | ProjectTool;

/** Keeps each tool's argument type tied to its schema while the registry holds them all alike. */
export function userTool<S extends TObject>(tool: UserTool<S>): McpTool {
  return tool as unknown as McpTool;
}

export function projectTool<S extends TObject>(tool: ProjectTool<S>): McpTool {
  return tool as unknown as McpTool;
}
