// Public surface of the apps module.
export { appsRoutes } from "./apps.routes.js";
export { type AppInvalidation, type AppsService, createAppsService } from "./apps.service.js";
