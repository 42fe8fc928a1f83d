// Public surface of the saved-views module: the service and its routes.
export { createSavedViewsService, type SavedViewsService } from "./saved-views.service.js";
export { savedViewsRoutes } from "./saved-views.routes.js";
