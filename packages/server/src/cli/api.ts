// The public routes the CLI calls, one typed function each: queries and answers are the
// @sightline/contracts types the server validates against, so a changed wire shape fails the
// CLI's typecheck rather than its users.
import type {
  AlertEventsPage,
  AlertEventsQuery,
  AlertRule,
  ContractChange,
  ContractChangesQuery,
  ContractDocumentQuery,
  ContractReport,
  ContractReportQuery,
  CreatedPersonalToken,
  CreatePersonalTokenBody,
  ErrorGroupsPage,
  LogoutBody,
  LogsExportQuery,
  LogsPage,
  LogsQuery,
  MagicLinkBody,
  Message,
  ProjectConsumersPage,
  ProjectConsumersQuery,
  ProjectEndpointsPage,
  ProjectEndpointsQuery,
  ProjectErrorsQuery,
  ProjectListItem,
  RequestDetail,
  RequestsExportQuery,
  RequestsPage,
  RequestsQuery,
  TokenPair,
  TraceDetail,
  TracesPage,
  TracesQuery,
  VerifyBody,
} from "@sightline/contracts";
import type { HttpClient } from "./http-client.js";

const seg = encodeURIComponent;
const inProject = (project: string, path: string) => `/projects/${seg(project)}${path}`;

export function sightlineApi(http: HttpClient) {
  return {
    requestMagicLink: (body: MagicLinkBody) => http.postJson<Message>("/auth/magic-link", body),
    verifyMagicLink: (body: VerifyBody) => http.postJson<TokenPair>("/auth/verify", body),
    logout: (body: LogoutBody) => http.postJson<Message>("/auth/logout", body),
    createPersonalToken: (body: CreatePersonalTokenBody) =>
      http.postJson<CreatedPersonalToken>("/users/me/tokens", body),

    listProjects: () => http.getJson<ProjectListItem[]>("/projects"),
    projectEndpoints: (project: string, query: ProjectEndpointsQuery) =>
      http.getJson<ProjectEndpointsPage>(inProject(project, "/analytics/endpoints"), query),
    projectConsumers: (project: string, query: ProjectConsumersQuery) =>
      http.getJson<ProjectConsumersPage>(inProject(project, "/analytics/consumers"), query),
    projectErrors: (project: string, query: ProjectErrorsQuery) =>
      http.getJson<ErrorGroupsPage>(inProject(project, "/analytics/errors"), query),

    searchRequests: (project: string, query: RequestsQuery) =>
      http.getJson<RequestsPage>(inProject(project, "/data/requests"), query),
    getRequest: (project: string, id: string) =>
      http.getJson<RequestDetail>(inProject(project, `/data/requests/${seg(id)}`)),
    exportRequests: (project: string, query: RequestsExportQuery) =>
      http.download(inProject(project, "/data/requests/export"), query),
    searchLogs: (project: string, query: LogsQuery) =>
      http.getJson<LogsPage>(inProject(project, "/data/logs"), query),
    exportLogs: (project: string, query: LogsExportQuery) =>
      http.download(inProject(project, "/data/logs/export"), query),
    searchTraces: (project: string, query: TracesQuery) =>
      http.getJson<TracesPage>(inProject(project, "/data/traces"), query),
    getTrace: (project: string, traceId: string) =>
      http.getJson<TraceDetail>(inProject(project, `/data/traces/${seg(traceId)}`)),

    listAlerts: (project: string) => http.getJson<AlertRule[]>(inProject(project, "/alerts")),
    alertEvents: (project: string, alertId: string, query: AlertEventsQuery) =>
      http.getJson<AlertEventsPage>(inProject(project, `/alerts/${seg(alertId)}/events`), query),

    /** The inferred document as the server sends it (JSON or YAML text), to be written out as is. */
    contractDocument: (project: string, query: ContractDocumentQuery) =>
      http.download(inProject(project, "/api/contract"), query),
    contractChanges: (project: string, query: ContractChangesQuery) =>
      http.getJson<{ data: ContractChange[]; total: number }>(inProject(project, "/api/changes"), query),
    contractChange: (project: string, changeId: string) =>
      http.getJson<ContractChange>(inProject(project, `/api/changes/${seg(changeId)}`)),
    contractReport: (project: string, query: ContractReportQuery) =>
      http.getJson<ContractReport>(inProject(project, "/api/report"), query),
  };
}

export type SightlineApi = ReturnType<typeof sightlineApi>;
