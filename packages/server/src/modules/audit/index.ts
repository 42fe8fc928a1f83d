// Public surface of the audit module: the trail services write to, and the log's reader.
export { auditRoutes } from "./audit.routes.js";
export { type AuditService, createAuditService } from "./audit.service.js";
export { type AuditEntry, type AuditTrail, createAuditTrail } from "./audit.trail.js";
