// Every write the dashboard makes to projects, apps, keys, environments and endpoints. `/apps`
// routes carry `?project=` so an app slug is always read inside its own project.
import type {
  App as AppRecord,
  CreateAppBody,
  CreateEnvironmentBody,
  CreatedApiKey,
  Endpoint,
  Environment,
  Message,
  Project,
  UpdateAppBody,
  UpdateEndpointBody,
  UpdateEnvironmentBody,
  UpdateProjectBody,
} from "@sightline/contracts";
import { api } from "./api-client";

const p = encodeURIComponent;
const scoped = (project: string) => ({ project });

export const projectsApi = {
  update: (project: string, body: UpdateProjectBody) => api.patch<Project>(`/projects/${p(project)}`, body),
  remove: (project: string) => api.delete<Message>(`/projects/${p(project)}`),
  createKey: (project: string, name: string) =>
    api.post<CreatedApiKey>(`/projects/${p(project)}/api-keys`, { name }),
  revokeKey: (project: string, keyId: string) =>
    api.delete<Message>(`/projects/${p(project)}/api-keys/${p(keyId)}`),
};

export const appsApi = {
  create: (project: string, body: CreateAppBody) => api.post<AppRecord>(`/projects/${p(project)}/apps`, body),
  update: (project: string, app: string, body: UpdateAppBody) =>
    api.patch<AppRecord>(`/projects/${p(project)}/apps/${p(app)}`, body),
  remove: (project: string, app: string) => api.delete<Message>(`/projects/${p(project)}/apps/${p(app)}`),
  createKey: (project: string, app: string, name: string) =>
    api.post<CreatedApiKey>(`/apps/${p(app)}/api-keys`, { name }, scoped(project)),
  revokeKey: (project: string, app: string, keyId: string) =>
    api.delete<Message>(`/apps/${p(app)}/api-keys/${p(keyId)}`, scoped(project)),
};

export const environmentsApi = {
  create: (project: string, app: string, body: CreateEnvironmentBody) =>
    api.post<Environment>(`/apps/${p(app)}/environments`, body, scoped(project)),
  update: (project: string, app: string, env: string, body: UpdateEnvironmentBody) =>
    api.patch<Environment>(`/apps/${p(app)}/environments/${p(env)}`, body, scoped(project)),
  remove: (project: string, app: string, env: string) =>
    api.delete<Message>(`/apps/${p(app)}/environments/${p(env)}`, scoped(project)),
};

export const endpointsApi = {
  update: (project: string, app: string, id: string, body: UpdateEndpointBody) =>
    api.patch<Endpoint>(`/apps/${p(app)}/endpoints/${p(id)}`, body, scoped(project)),
  remove: (project: string, app: string, id: string) =>
    api.delete<Message>(`/apps/${p(app)}/endpoints/${p(id)}`, scoped(project)),
};
