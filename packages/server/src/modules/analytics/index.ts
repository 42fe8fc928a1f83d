// Public surface of the analytics module.
export { analyticsRoutes } from "./analytics.routes.js";
export { type AnalyticsService, createAnalyticsService } from "./analytics.service.js";
export { type AnalyticsWindow, readWindow } from "./window.js";
