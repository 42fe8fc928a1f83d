// Public surface of the endpoints module.
export { endpointsRoutes } from "./endpoints.routes.js";
export { createEndpointsService, type EndpointsService } from "./endpoints.service.js";
