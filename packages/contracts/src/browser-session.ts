// Wire shapes of the dashboard's cookie session (/auth/session): signing in from a browser by
// e-mail link or password, and the session's facts.
// No answer here ever carries a token: the session lives in an HttpOnly cookie.
import { type Static, Type } from "typebox";

/** The cookie that carries a browser session; HttpOnly, so page scripts never see it. */
export const SESSION_COOKIE_NAME = "sightline_session";

/** The header a browser client sends on every state-changing request (CSRF guard). */
export const CSRF_HEADER_NAME = "x-sightline-csrf";

const RememberMe = Type.Boolean({
  default: true,
  description:
    "true: the session and its cookie last 30 days; false: the cookie ends with the browser and the " +
    "session after 24 hours.",
  examples: [true],
});

export const BrowserLinkSignInBodySchema = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 512,
      description: "The token from the sign-in e-mail (the `token` query parameter of its link).",
      examples: ["kV7hQ2mZ0pY4sW9cT1bN6xR3fJ8uL5aE0dG2iK7oMqS"],
    }),
    remember_me: Type.Optional(RememberMe),
  },
  { additionalProperties: false },
);
export type BrowserLinkSignInBody = Static<typeof BrowserLinkSignInBodySchema>;

export const BrowserPasswordSignInBodySchema = Type.Object(
  {
    email: Type.String({ format: "email", maxLength: 254, examples: ["ada@example.com"] }),
    password: Type.String({ minLength: 1, maxLength: 1024, examples: ["correct horse battery"] }),
    remember_me: Type.Optional(RememberMe),
  },
  { additionalProperties: false },
);
export type BrowserPasswordSignInBody = Static<typeof BrowserPasswordSignInBodySchema>;

export const BrowserSessionSchema = Type.Object(
  {
    session_id: Type.String({
      format: "uuid",
      description: "The session's id, as listed by GET /users/sessions.",
      examples: ["6a1f0c52-7f43-4d4b-9a57-1f1d1f0b8f0e"],
    }),
    user_id: Type.String({ format: "uuid", examples: ["0b6f7c1e-3d2a-4f8e-9b1c-5a7d2e4f6a81"] }),
    email: Type.String({ examples: ["ada@example.com"] }),
    expires_at: Type.String({
      format: "date-time",
      description: "The session's absolute end; nothing extends it.",
      examples: ["2026-12-21T10:00:00.000Z"],
    }),
  },
  { additionalProperties: false },
);
export type BrowserSession = Static<typeof BrowserSessionSchema>;

/**
 * GET /auth/session/state: whether this browser is signed in, answered without an error status
 * for a visitor who never signed in (no session cookie), so a first visit logs nothing.
 */
export const BrowserSessionStateSchema = Type.Object(
  {
    session: Type.Union([BrowserSessionSchema, Type.Null()], {
      description: "The cookie's live session; null when the request carries no session cookie.",
    }),
  },
  { additionalProperties: false },
);
export type BrowserSessionState = Static<typeof BrowserSessionStateSchema>;
