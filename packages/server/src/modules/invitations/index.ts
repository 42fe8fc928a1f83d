// Public surface of the invitations module.
export { invitationsRoutes } from "./invitations.routes.js";
export { createInvitationsService, type InvitationsService } from "./invitations.service.js";
