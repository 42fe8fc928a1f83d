// Public surface of the access module: route declarations, the plugin that enforces them, the
// authorized scopes handlers and services receive, and the checks services may add.
export {
  accessPlugin,
  appScopeOf,
  projectScopeOf,
  type RouteAccessEntry,
  type TokenWrite,
} from "./access.plugin.js";
export { access, type RouteAccess } from "./route-access.js";
export {
  AppParams,
  AppScopeQuery,
  ProjectAppParams,
  ProjectParams,
  withParams,
  withProject,
} from "./scope-params.js";
export { type AppScope, assertCan, can, isAppScope, type ProjectScope } from "./scope.js";
export { createScopeResolver, type Principal, type ScopeResolver } from "./scope-resolver.js";
export { reauthorize } from "./write-check.js";
