// The services MCP tools answer from: the same ones the REST routes call, so a tool reports
// exactly what the API reports. Nothing here reads a store directly.
import type { Logger } from "pino";
import type { Clock } from "../../clock.js";
import type { ScopeResolver } from "../access/index.js";
import type { AlertsModule } from "../alerts/index.js";
import type { AnalyticsService } from "../analytics/index.js";
import type { AppsService } from "../apps/index.js";
import type { ContractModule } from "../contract/index.js";
import type { DataService } from "../data/index.js";
import type { ProjectsService } from "../projects/index.js";

export interface McpServices {
  readonly analytics: AnalyticsService;
  readonly data: DataService;
  readonly rules: AlertsModule["rules"];
  readonly contract: ContractModule["service"];
  readonly projects: ProjectsService;
  readonly apps: AppsService;
  /** Authorizes every project a tool names, exactly as the REST routes' preHandler does. */
  readonly access: ScopeResolver;
  readonly clock: Clock;
  /** One line per tool call: tool, project, user, token prefix, duration, outcome. */
  readonly logger: Logger;
  /** The server's own OpenAPI document (a resource), when the app has one. */
  readonly openApi?: () => unknown;
}
