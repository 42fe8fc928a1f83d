// Every MCP tool, in the order an agent is shown them: where to start, then figures, then records.
import type { McpTool } from "../tool.js";
import { alertEvents, listAlerts } from "./alerts.tools.js";
import { whatChanged } from "./changes.tools.js";
import { consumerUsage, listConsumers } from "./consumers.tools.js";
import { contractReport, getApiContract, listContractChanges } from "./contract.tools.js";
import { listEnvironments, listProjects } from "./directory.tools.js";
import { getRequest, getTrace, searchLogs, searchRequests, searchTraces } from "./records.tools.js";
import { endpointDetail, errorGroups, topEndpoints, trafficSummary } from "./traffic.tools.js";

export const TOOLS: readonly McpTool[] = [
  listProjects,
  listEnvironments,
  trafficSummary,
  whatChanged,
  topEndpoints,
  endpointDetail,
  listConsumers,
  consumerUsage,
  errorGroups,
  searchRequests,
  getRequest,
  searchLogs,
  searchTraces,
  getTrace,
  listAlerts,
  alertEvents,
  getApiContract,
  listContractChanges,
  contractReport,
];

export { ruleRow } from "./alerts.tools.js";
export { contractDocument } from "./contract.tools.js";
