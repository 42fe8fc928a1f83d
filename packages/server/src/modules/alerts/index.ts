// Public surface of the alerts module: its assembly (services, evaluator, delivery) and routes.
export { type AlertsModule, createAlertsModule } from "./alerts.module.js";
export { alertsRoutes } from "./alerts.routes.js";
export { channelsRoutes } from "./channels.routes.js";
export type { AlertsBacklog, AlertsObserver, DeliveryOutcome } from "./alerts.observer.js";
export { LATE_DATA_MARGIN_MS } from "./alerts.module.js";
export type { EvaluationPass } from "./scheduler.js";
export { invalidFields } from "./field-errors.js";
export type { SloNotification } from "./slo-notification.js";
