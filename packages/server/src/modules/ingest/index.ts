// Public surface of the ingest module: its routes and service, the directory it needs from the
// resource modules (implemented in resources.ts), and the row builders other ways in (OTLP) share.
export type { AppRef, DiscoveredEndpoint, IngestDirectory, KeyPrincipal } from "./directory.js";
export { readBody } from "./ingest.body.js";
export { type BatchContext, preparePlacedBatch } from "./ingest.pipeline.js";
export { ingestRoutes } from "./ingest.routes.js";
export {
  type BatchOutcome,
  createIngestService,
  type IngestLimits,
  type IngestService,
} from "./ingest.service.js";
export { createHeartbeatService, type HeartbeatService } from "./heartbeat.service.js";
export { normaliseRouteTemplate } from "./route-template.js";
export { type PlacedInput, type RecordProblem, readHexId, type RowKind, setOwn } from "./records.js";
export { foldHeaders, readEndpoint, requestRow } from "./requests.records.js";
export { uuidV7Derived } from "./row-ids.js";
export { readSpanIds, spanRow } from "./spans.records.js";
export { cutChars } from "./text.js";
