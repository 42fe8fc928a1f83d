// The dashboard's sign-in: the same magic-link and password sign-in as /auth/verify and
// /auth/login (same rate limits, same errors, a normal session row), ending in a sealed cookie
// instead of tokens. The token pair the sign-in issues never leaves the server: the session's
// refresh token is simply never handed out, so nothing can rotate or extend the session.
import type {
  BrowserLinkSignInBody,
  BrowserPasswordSignInBody,
  BrowserSession,
  ChangePasswordBody,
  Message,
  TokenPair,
} from "@sightline/contracts";
import type { Clock } from "../../clock.js";
import { AppError } from "../../errors.js";
import type { AuthContext } from "../../http/bearer-auth.js";
import type { SessionCookieVerifier } from "../../http/session-cookie.js";
import type { AuthService, ClientFacts, LiveSession } from "./auth.service.js";
import type { SessionSealer } from "./session-cookie-seal.js";

/** A started browser session: the cookie's value, how long it may live, and its facts. */
export interface BrowserSignIn {
  readonly cookieValue: string;
  /** Seconds for the cookie's Max-Age; undefined for a cookie that ends with the browser. */
  readonly maxAgeSeconds: number | undefined;
  readonly session: BrowserSession;
}

export interface BrowserSessionService extends SessionCookieVerifier {
  signInWithLink(body: BrowserLinkSignInBody, client: ClientFacts): Promise<BrowserSignIn>;
  signInWithPassword(body: BrowserPasswordSignInBody, client: ClientFacts): Promise<BrowserSignIn>;
  describe(caller: AuthContext): Promise<BrowserSession>;
  signOut(caller: AuthContext): Promise<Message>;
  /** Sets or changes the password; other sessions end, this one goes on (no tokens answered). */
  changePassword(caller: AuthContext, body: ChangePasswordBody): Promise<Message>;
}

const ENDED = "Your session has ended (signed out, expired, or revoked); sign in again.";

export function createBrowserSessionService(deps: {
  readonly auth: AuthService;
  readonly sealer: SessionSealer;
  readonly clock: Clock;
}): BrowserSessionService {
  const { auth, sealer, clock } = deps;

  async function start(pair: Promise<TokenPair>, rememberMe: boolean | undefined): Promise<BrowserSignIn> {
    const caller = await auth.verifyAccessToken((await pair).access_token);
    const live = await auth.verifySession(caller.sessionId, caller.userId);
    const expiresAt = new Date(live.expiresAt);
    const remaining = Math.floor((expiresAt.getTime() - clock.now().getTime()) / 1000);
    return {
      cookieValue: await sealer.seal({ sessionId: caller.sessionId, userId: caller.userId, expiresAt }),
      maxAgeSeconds: (rememberMe ?? true) ? remaining : undefined,
      session: toBrowserSession(live),
    };
  }

  return {
    signInWithLink(body, client) {
      // device_info stays unset: the session list shows the browser's User-Agent.
      return start(
        auth.verifyMagicLink({ token: body.token, remember_me: body.remember_me }, client),
        body.remember_me,
      );
    },

    signInWithPassword(body, client) {
      return start(
        auth.login({ email: body.email, password: body.password, remember_me: body.remember_me }, client),
        body.remember_me,
      );
    },

    async describe(caller) {
      return toBrowserSession(await auth.verifySession(caller.sessionId, caller.userId));
    },

    async signOut(caller) {
      await auth.revokeSession(caller, caller.sessionId);
      return { message: "Signed out" };
    },

    async changePassword(caller, body) {
      const { message } = await auth.changePassword(caller, body);
      return { message };
    },

    async verifySessionCookie(value) {
      const sealed = await sealer.unseal(value);
      if (sealed === null) throw new AppError("authentication_error", ENDED);
      try {
        return (await auth.verifySession(sealed.sessionId, sealed.userId)).caller;
      } catch (error) {
        if (error instanceof AppError && error.code === "authentication_error") {
          throw new AppError("authentication_error", ENDED);
        }
        throw error;
      }
    },
  };
}

function toBrowserSession(live: LiveSession): BrowserSession {
  return {
    session_id: live.caller.sessionId,
    user_id: live.caller.userId,
    email: live.caller.email,
    expires_at: live.expiresAt,
  };
}
