// Public surface of the OpenTelemetry module: the OTLP/HTTP receivers and their service.
export { otlpRoutes } from "./otlp.routes.js";
export { createOtlpService, type OtlpService } from "./otlp.service.js";
