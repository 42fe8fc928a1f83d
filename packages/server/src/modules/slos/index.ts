// Public surface of the SLOs module: the service the routes call, the burn-rate evaluation the
// alert scheduler runs under its lease, and the routes.
export { createSloEvaluator } from "./slo-evaluator.js";
export { createSlosService, type SlosService } from "./slos.service.js";
export { slosRoutes } from "./slos.routes.js";
