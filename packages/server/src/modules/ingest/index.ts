// Public surface of the ingest module: its routes and service, and the directory it needs from
// the resource modules (implemented in resources.ts).
export type { AppRef, DiscoveredEndpoint, IngestDirectory, KeyPrincipal } from "./directory.js";
export { readBody } from "./ingest.body.js";
export { ingestRoutes } from "./ingest.routes.js";
export { type BatchOutcome, createIngestService, type IngestService } from "./ingest.service.js";
export { normaliseRouteTemplate } from "./route-template.js";
