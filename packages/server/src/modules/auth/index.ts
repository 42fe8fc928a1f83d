// Public surface of the auth module: sign-in, sessions, tokens, and the mail queue it owns.
export { authRoutes } from "./auth.routes.js";
export { type AuthService, createAuthService } from "./auth.service.js";
export { browserSessionRoutes } from "./browser-session.routes.js";
export { type BrowserSessionService, createBrowserSessionService } from "./browser-session.service.js";
export {
  createMailQueue,
  createOutboxTransport,
  createSmtpTransport,
  escapeHtml,
  type Mail,
  type MailQueue,
  type MailTransport,
} from "./mail/index.js";
export { createSessionSealer } from "./session-cookie-seal.js";
export { sessionsRoutes } from "./sessions.routes.js";
export { createAccessTokenSigner, createOpaqueToken, hashToken } from "./tokens.js";
