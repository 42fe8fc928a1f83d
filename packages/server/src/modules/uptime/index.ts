// Public surface of the uptime module: its assembly (service, runner under a lease) and routes.
export { createUptimeModule, type UptimeModule } from "./uptime.module.js";
export { uptimeRoutes } from "./uptime.routes.js";
export type { UptimeService } from "./uptime.service.js";
