// Public surface of @sightline/contracts: wire schemas, their types, the error catalogue.
export * from "./alerts.js";
export * from "./analytics.js";
export * from "./auth.js";
export * from "./browser-session.js";
export * from "./common.js";
export * from "./contract.js";
export * from "./data.js";
export * from "./traces.js";
export * from "./errors.js";
export * from "./ingest.js";
export * from "./resources.js";
export * from "./users.js";
export * from "./roles.js";
export * from "./slos.js";
export * from "./teams.js";
export * from "./tokens.js";
export * from "./vocabulary.js";
