// Public surface of the users module.
export { usersRoutes } from "./users.routes.js";
export { type AccountDeletedHook, createUsersService, type UsersService } from "./users.service.js";
