// The API section's reads and writes: an app's inferred contract per environment (document,
// versions), the change log with affected consumers, the declared document and the
// declared-vs-observed report with the inferred contract's differences from the declared
// document, and the contract-change alert rules.
import type {
  ContractAlertRule,
  ContractChange,
  ContractReport,
  ContractVersion,
  CreateContractAlertRuleBody,
  DeclaredDiff,
  DeclaredDocument,
  Message,
} from "@sightline/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api, buildUrl, isApiError } from "../../lib/api-client";

const p = encodeURIComponent;
const base = (project: string) => `/projects/${p(project)}/api`;

export interface Scope {
  readonly app: string;
  readonly environment: string;
}

export const contractKeys = {
  all: (project: string) => ["projects", project, "api-contract"] as const,
  document: (project: string, scope: Scope) =>
    ["projects", project, "api-contract", "document", scope.app, scope.environment] as const,
  versions: (project: string, scope: Scope) =>
    ["projects", project, "api-contract", "versions", scope.app, scope.environment] as const,
  changes: (project: string, filter: ChangesFilter) =>
    ["projects", project, "api-contract", "changes", filter] as const,
  change: (project: string, id: string) => ["projects", project, "api-contract", "change", id] as const,
  declared: (project: string, app: string) => ["projects", project, "api-contract", "declared", app] as const,
  report: (project: string, scope: Scope) =>
    ["projects", project, "api-contract", "report", scope.app, scope.environment] as const,
  declaredDiff: (project: string, scope: Scope, version: number | undefined) =>
    ["projects", project, "api-contract", "declared-diff", scope.app, scope.environment, version] as const,
  rules: (project: string) => ["projects", project, "api-contract", "rules"] as const,
};

/** The inferred document as the dashboard reads it (OpenAPI 3.1, Sightline's extensions). */
export interface InferredDocument {
  readonly openapi: string;
  readonly info?: { readonly title?: string };
  readonly paths?: Record<string, Record<string, unknown>>;
}

/** No version yet (no traffic seen for the scope) reads as null, not as a failure. */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export const documentQuery = (project: string, scope: Scope) =>
  queryOptions({
    queryKey: contractKeys.document(project, scope),
    queryFn: ({ signal }) =>
      orNull(api.get<InferredDocument>(`${base(project)}/contract`, { signal, query: { ...scope } })),
  });

export const versionsQuery = (project: string, scope: Scope) =>
  queryOptions({
    queryKey: contractKeys.versions(project, scope),
    queryFn: ({ signal }) =>
      orNull(
        api.get<ContractVersion[]>(`${base(project)}/contract/versions`, { signal, query: { ...scope } }),
      ),
  });

export interface ChangesFilter {
  readonly app?: string | undefined;
  readonly environment?: string | undefined;
  readonly breaking?: boolean | undefined;
  readonly offset?: number | undefined;
}

export const CHANGES_PAGE_SIZE = 50;

export const changesQuery = (project: string, filter: ChangesFilter) =>
  queryOptions({
    queryKey: contractKeys.changes(project, filter),
    queryFn: ({ signal }) =>
      api.get<{ data: ContractChange[]; total: number }>(`${base(project)}/changes`, {
        signal,
        query: { ...filter, limit: CHANGES_PAGE_SIZE },
      }),
  });

export const changeQuery = (project: string, id: string) =>
  queryOptions({
    queryKey: contractKeys.change(project, id),
    queryFn: ({ signal }) => api.get<ContractChange>(`${base(project)}/changes/${p(id)}`, { signal }),
  });

export const declaredQuery = (project: string, app: string) =>
  queryOptions({
    queryKey: contractKeys.declared(project, app),
    queryFn: ({ signal }) =>
      orNull(api.get<DeclaredDocument>(`${base(project)}/declared`, { signal, query: { app } })),
  });

export const reportQuery = (project: string, scope: Scope) =>
  queryOptions({
    queryKey: contractKeys.report(project, scope),
    queryFn: ({ signal }) =>
      orNull(api.get<ContractReport>(`${base(project)}/report`, { signal, query: { ...scope } })),
  });

/** How the inferred contract (a version, else the latest) departs from the declared document;
 *  null when there is no declared document or no inferred version. */
export const declaredDiffQuery = (project: string, scope: Scope, version?: number) =>
  queryOptions({
    queryKey: contractKeys.declaredDiff(project, scope, version),
    queryFn: ({ signal }) =>
      orNull(
        api.get<DeclaredDiff>(`${base(project)}/declared/diff`, {
          signal,
          query: { ...scope, ...(version === undefined ? {} : { version }) },
        }),
      ),
  });

export const contractRulesQuery = (project: string) =>
  queryOptions({
    queryKey: contractKeys.rules(project),
    queryFn: ({ signal }) => api.get<ContractAlertRule[]>(`${base(project)}/alert-rules`, { signal }),
  });

/** YAML when the file's name or first line says so, else JSON. */
export function documentMediaType(name: string, text: string): string {
  if (/\.ya?ml$/i.test(name)) return "application/yaml";
  return /^\s*[{[]/.test(text) ? "application/json" : "application/yaml";
}

export const contractApi = {
  uploadDeclared: (project: string, app: string, text: string, mediaType: string) =>
    api.postText<DeclaredDocument>(`${base(project)}/declared`, text, mediaType, { app }),
  deleteDeclared: (project: string, app: string) => api.delete<Message>(`${base(project)}/declared`, { app }),
  createRule: (project: string, body: CreateContractAlertRuleBody) =>
    api.post<ContractAlertRule>(`${base(project)}/alert-rules`, body),
  deleteRule: (project: string, id: string) => api.delete<Message>(`${base(project)}/alert-rules/${p(id)}`),
};

/** Where the inferred document downloads from (the session cookie authorises the link). */
export function documentUrl(project: string, scope: Scope, format: "json" | "yaml"): string {
  return buildUrl(`${base(project)}/contract`, { ...scope, format });
}

/** The server's offline reference viewer, opened on the inferred document. */
export function viewerUrl(project: string, scope: Scope): string {
  const url = buildUrl(`${base(project)}/contract`, { ...scope });
  return `${buildUrl("/docs/")}?url=${encodeURIComponent(url)}`;
}
