// Public surface of the meta module.
export { createHealthService, type HealthService } from "./health.service.js";
export { metaRoutes } from "./meta.routes.js";
