// @sightline/node: the framework-free core. Adapters live in their own entry points
// (@sightline/node/express, /fastify, /koa, /hono, /nestjs, /next) and log integrations in
// /pino and /winston, so an app loads only what it uses.
export { createSightline, Sightline } from "./client.js";
export type { HeaderReader, LogFields, LogLevel, SightlineStats } from "./client.js";
export type { Consumer, ConsumerInput } from "./capture/exchange.js";
export type { TrustProxy } from "./capture/client-ip.js";
export { ALWAYS_REDACTED_HEADERS, DEFAULT_BODY_KEYS, REDACTED } from "./capture/redact.js";
export { recordValidationErrors, setConsumer } from "./context.js";
export type { ValidationIssue } from "./capture/validation.js";
export { captureConsole } from "./logs/console.js";
export type { SightlineOptions } from "./options.js";
export type { SightlineLogger } from "./transport/diagnostics.js";
export type { ShipperStats } from "./transport/shipper.js";
export type { HeartbeatWire, LogRecordWire, RequestRecordWire } from "./wire.js";
