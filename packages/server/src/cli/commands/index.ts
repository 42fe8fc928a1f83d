// Every command of `sightline`, in the order `--help` lists them. A new command is a module
// exporting one RegisterCommand, added here.
import type { RegisterCommand } from "../program.js";
import { registerAlertsCommand } from "./alerts.js";
import { registerConsumersCommand } from "./consumers.js";
import { registerContractCommand } from "./contract.js";
import { registerEndpointsCommand } from "./endpoints.js";
import { registerErrorsCommand } from "./errors.js";
import { registerExportCommand } from "./export.js";
import { registerLoginCommands } from "./login.js";
import { registerLogsCommand } from "./logs.js";
import { registerMcpCommand } from "./mcp.js";
import { registerProjectsCommand } from "./projects.js";
import { registerRequestsCommands } from "./requests.js";
import { registerServerCommands } from "./server.js";
import { registerTracesCommands } from "./traces.js";

export const COMMANDS: readonly RegisterCommand[] = [
  registerServerCommands,
  registerLoginCommands,
  registerProjectsCommand,
  registerEndpointsCommand,
  registerRequestsCommands,
  registerLogsCommand,
  registerErrorsCommand,
  registerConsumersCommand,
  registerTracesCommands,
  registerAlertsCommand,
  registerContractCommand,
  registerExportCommand,
  registerMcpCommand,
];
