// Public surface of @sightline/contracts: wire schemas, their types, the error catalogue.
export * from "./common.js";
export * from "./errors.js";
