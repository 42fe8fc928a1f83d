// Public surface of the alerts module: its assembly (services, evaluator, delivery) and routes.
export { type AlertsModule, createAlertsModule } from "./alerts.module.js";
export { alertsRoutes } from "./alerts.routes.js";
export { channelsRoutes } from "./channels.routes.js";
export type { AlertsBacklog, AlertsObserver, DeliveryOutcome } from "./alerts.observer.js";
// What other notifiers (contract-change alerts) reuse: channel targets, the signed webhook POST,
// failure descriptions and the retry schedule.
export { channelTargetOf } from "./channels.service.js";
export { DEFAULT_RETRY_DELAYS_MS, describeFailure } from "./deliveries.worker.js";
export { DeliveryError, postJson } from "./http-post.js";
export { type ChannelTarget, SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from "./senders.js";
export { LATE_DATA_MARGIN_MS } from "./alerts.module.js";
export type { EvaluationPass } from "./scheduler.js";
export { invalidFields } from "./field-errors.js";
export type { SloNotification } from "./slo-notification.js";
export { assertDeliverable, guardedLookup, targetProblem } from "./target-guard.js";
export type { UptimeNotification } from "./uptime-notification.js";
