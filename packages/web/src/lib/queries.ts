// Every server read the dashboard makes, as TanStack Query options: one key scheme, one place
// per route. Response types are the server's own (@sightline/contracts, types only).
import type {
  AuditLogPage,
  Invitations,
  Members,
  ReceivedInvitations,
  UserContext,
  AppListItem,
  App as AppRecord,
  ApiKeyListItem,
  BrowserSession,
  BrowserSessionState,
  Endpoint,
  Environment,
  Project,
  PersonalTokenList,
  ProjectListItem,
  RequestsPage,
  Session,
  UserProfile,
} from "@sightline/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api } from "./api-client";

const p = encodeURIComponent;
/** `/apps/{slug}/…` routes take `?project=` so two projects' apps with one slug never clash. */
const inProject = (projectSlug: string) => ({ query: { project: projectSlug } });

export const keys = {
  session: ["session"] as const,
  me: ["me"] as const,
  sessions: ["sessions"] as const,
  personalTokens: ["personal-tokens"] as const,
  projects: ["projects"] as const,
  project: (slug: string) => ["projects", slug] as const,
  apps: (project: string) => ["projects", project, "apps"] as const,
  app: (project: string, app: string) => ["projects", project, "apps", app] as const,
  projectKeys: (project: string) => ["projects", project, "keys"] as const,
  appKeys: (project: string, app: string) => ["projects", project, "apps", app, "keys"] as const,
  environments: (project: string, app: string) => ["projects", project, "apps", app, "environments"] as const,
  endpoints: (project: string, app: string) => ["projects", project, "apps", app, "endpoints"] as const,
  firstRequest: (project: string, app: string) =>
    ["projects", project, "apps", app, "first-request"] as const,
  userContext: ["user-context"] as const,
  receivedInvitations: ["received-invitations"] as const,
  members: (project: string) => ["projects", project, "members"] as const,
  invitations: (project: string) => ["projects", project, "invitations"] as const,
  auditLog: (project: string, page: number) => ["projects", project, "audit-log", page] as const,
};

/** The browser's session, or null for a visitor without one (answered 200, so nothing is logged). */
export const sessionQuery = queryOptions({
  queryKey: keys.session,
  queryFn: async ({ signal }): Promise<BrowserSession | null> =>
    (await api.get<BrowserSessionState>("/auth/session/state", { signal })).session,
  staleTime: 60_000,
  retry: false,
});

export const meQuery = queryOptions({
  queryKey: keys.me,
  queryFn: ({ signal }) => api.get<UserProfile>("/users/me", { signal }),
  staleTime: 60_000,
});

export const sessionsQuery = queryOptions({
  queryKey: keys.sessions,
  queryFn: ({ signal }) => api.get<Session[]>("/users/sessions", { signal }),
});

export const personalTokensQuery = queryOptions({
  queryKey: keys.personalTokens,
  queryFn: ({ signal }) => api.get<PersonalTokenList>("/users/me/tokens", { signal }),
});

export const projectsQuery = queryOptions({
  queryKey: keys.projects,
  queryFn: ({ signal }) => api.get<ProjectListItem[]>("/projects", { signal }),
  staleTime: 30_000,
});

export const projectQuery = (slug: string) =>
  queryOptions({
    queryKey: keys.project(slug),
    queryFn: ({ signal }) => api.get<Project>(`/projects/${p(slug)}`, { signal }),
    staleTime: 30_000,
  });

export const appsQuery = (project: string) =>
  queryOptions({
    queryKey: keys.apps(project),
    queryFn: ({ signal }) => api.get<AppListItem[]>(`/projects/${p(project)}/apps`, { signal }),
    staleTime: 30_000,
  });

export const appQuery = (project: string, app: string) =>
  queryOptions({
    queryKey: keys.app(project, app),
    queryFn: ({ signal }) => api.get<AppRecord>(`/projects/${p(project)}/apps/${p(app)}`, { signal }),
  });

export const projectKeysQuery = (project: string) =>
  queryOptions({
    queryKey: keys.projectKeys(project),
    queryFn: ({ signal }) => api.get<ApiKeyListItem[]>(`/projects/${p(project)}/api-keys`, { signal }),
  });

export const appKeysQuery = (project: string, app: string) =>
  queryOptions({
    queryKey: keys.appKeys(project, app),
    queryFn: ({ signal }) =>
      api.get<ApiKeyListItem[]>(`/apps/${p(app)}/api-keys`, { signal, ...inProject(project) }),
  });

export const environmentsQuery = (project: string, app: string) =>
  queryOptions({
    queryKey: keys.environments(project, app),
    queryFn: ({ signal }) =>
      api.get<Environment[]>(`/apps/${p(app)}/environments`, { signal, ...inProject(project) }),
  });

export const endpointsQuery = (project: string, app: string) =>
  queryOptions({
    queryKey: keys.endpoints(project, app),
    queryFn: ({ signal }) =>
      api.get<Endpoint[]>(`/apps/${p(app)}/endpoints`, { signal, ...inProject(project) }),
  });

/** The newest request record of an app, if any: what the setup page waits for. */
export const firstRequestQuery = (project: string, app: string) =>
  queryOptions({
    queryKey: keys.firstRequest(project, app),
    queryFn: async ({ signal }) => {
      const page = await api.get<RequestsPage>(`/projects/${p(project)}/data/requests`, {
        signal,
        query: { app_slugs: app, page_size: 1 },
      });
      return page.items[0] ?? null;
    },
  });

/** The caller's projects with their role and what it allows: what the dashboard hides by. */
export const userContextQuery = queryOptions({
  queryKey: keys.userContext,
  queryFn: ({ signal }) => api.get<UserContext>("/users/context", { signal }),
  staleTime: 15_000,
});

export const receivedInvitationsQuery = queryOptions({
  queryKey: keys.receivedInvitations,
  queryFn: ({ signal }) => api.get<ReceivedInvitations>("/users/invitations", { signal }),
  staleTime: 30_000,
});

export const membersQuery = (project: string) =>
  queryOptions({
    queryKey: keys.members(project),
    queryFn: ({ signal }) => api.get<Members>(`/projects/${p(project)}/members`, { signal }),
  });

export const invitationsQuery = (project: string) =>
  queryOptions({
    queryKey: keys.invitations(project),
    queryFn: ({ signal }) => api.get<Invitations>(`/projects/${p(project)}/invitations`, { signal }),
  });

export const AUDIT_PAGE_SIZE = 50;

export const auditLogQuery = (project: string, page: number) =>
  queryOptions({
    queryKey: keys.auditLog(project, page),
    queryFn: ({ signal }) =>
      api.get<AuditLogPage>(`/projects/${p(project)}/audit-log`, {
        signal,
        query: { page, page_size: AUDIT_PAGE_SIZE },
      }),
  });
