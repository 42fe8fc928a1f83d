// Public surface of the projects module.
export { projectsRoutes } from "./projects.routes.js";
export { createProjectsService, type ProjectInvalidation, type ProjectsService } from "./projects.service.js";
