// The events tables, each declared once (see table.ts).
export { API_LOGS, type ApiLogsColumn } from "./api-logs.table.js";
export { API_REQUESTS, type ApiRequestsColumn } from "./api-requests.table.js";
export { API_SPANS, type ApiSpansColumn } from "./api-spans.table.js";
export { UPTIME_RESULTS, type UptimeResultsColumn } from "./uptime-results.table.js";
export {
  addColumnsStatement,
  createTableStatement,
  defineEventsTable,
  type EventsColumn,
  type EventsTable,
  pickColumns,
} from "./table.js";
