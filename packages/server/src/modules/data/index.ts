// Public surface of the data module: the searches, and the query-string readers analytics shares.
export { dataRoutes } from "./data.routes.js";
export {
  createDataService,
  EXPORT_RATE_LIMIT,
  type DataService,
  readConsumer,
  readEnvironment,
  readPage,
  recordScopeOf,
} from "./data.service.js";
