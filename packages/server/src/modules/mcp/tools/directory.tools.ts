// Where an agent starts: the projects the caller's token reaches, with their apps, and the
// environments a project has data in.
import { Type } from "typebox";
import { projectTool, userTool } from "../tool.js";
import { AppSlugsArg, ProjectArg } from "./params.js";

export const listProjects = userTool({
  target: "user",
  name: "list_projects",
  title: "List projects and apps",
  description:
    "The projects you can read (those your personal access token reaches), each with your role and " +
    "its apps (slug, name, framework). Start here: every other tool takes a project slug, many an " +
    "app slug. Answers {projects: [{slug, name, role, apps: [{slug, name, framework}]}]}.",
  input: Type.Object({}, { additionalProperties: false }),
  async run({ principal, services }) {
    const reached = principal.grant?.projectIds ?? null;
    const [projects, apps] = await Promise.all([
      services.projects.listProjects(principal.userId, reached),
      services.apps.listAccessible(principal.userId, reached),
    ]);
    return {
      projects: projects.map((project) => ({
        slug: project.slug,
        name: project.name,
        description: project.description,
        role: project.role,
        apps: apps
          .filter((app) => app.project_slug === project.slug)
          .map((app) => ({ slug: app.slug, name: app.name, framework: app.framework })),
      })),
    };
  },
});

export const listEnvironments = projectTool({
  target: "project",
  permission: "data:read",
  name: "list_environments",
  title: "List environments with data",
  description:
    "The environments (e.g. production, staging) that have request or log records in the project, " +
    "sorted; use one as the `environment` argument of the other tools.",
  input: Type.Object(
    { project: ProjectArg, app_slugs: Type.Optional(AppSlugsArg) },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    return services.analytics.environments(scope, { app_slugs: args.app_slugs });
  },
});
