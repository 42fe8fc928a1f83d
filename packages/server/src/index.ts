// Public surface of @sightline/server for embedding and tests.
export { buildApp } from "./app.js";
export { type Config, ConfigError, loadConfig } from "./config/index.js";
export { createDeps, type Deps, type DepsOptions } from "./deps.js";
export { createLogger } from "./logger.js";
export { type RunningServer, startServer } from "./main.js";
