// Public surface of the members module.
export { membersRoutes } from "./members.routes.js";
export { createMembersService, type MembersService } from "./members.service.js";
