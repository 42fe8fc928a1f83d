// Public surface of the alerts module: its assembly (services, evaluator, delivery) and routes.
export { type AlertsModule, createAlertsModule } from "./alerts.module.js";
export { alertsRoutes } from "./alerts.routes.js";
export { channelsRoutes } from "./channels.routes.js";
export type { AlertsBacklog, AlertsObserver, DeliveryOutcome } from "./alerts.observer.js";
