// Public surface of the metadata store.
export { MetadataConflictError } from "./portable-driver.js";
export type { MetadataConnectionOptions, MetadataEngine } from "./dialect.js";
export { type MetadataStore, openMetadataStore, withTimeout } from "./metadata-store.js";
export { createRateLimitsRepo, type RateLimitsRepo } from "./repos/rate-limits.repo.js";
export type { MetadataTables } from "./schema.js";
