// Public surface of the environments module.
export { environmentsRoutes } from "./environments.routes.js";
export {
  createEnvironmentsService,
  type EnvironmentsService,
  normaliseEnvironmentName,
} from "./environments.service.js";
