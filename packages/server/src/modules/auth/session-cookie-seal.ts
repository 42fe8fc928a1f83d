// The value of the dashboard's session cookie: a compact JWE (`dir` + A256GCM) naming a
// session, its user and its absolute end, under a key derived from JWT_SECRET for this one
// purpose. Sealed rather than signed so the session id is not readable from the cookie jar;
// the session row stays the authority: unsealing is followed by the same live-row check as a
// bearer token, so revocation is immediate.
import { hkdfSync } from "node:crypto";
import { EncryptJWT, errors as joseErrors, jwtDecrypt } from "jose";
import type { Clock } from "../../clock.js";

export interface SealedSession {
  readonly sessionId: string;
  readonly userId: string;
  /** The session's absolute end; a sealed value is refused after it. */
  readonly expiresAt: Date;
}

export interface SessionSealer {
  seal(session: SealedSession): Promise<string>;
  /** The session a well-sealed, unexpired value names; null for anything else. */
  unseal(value: string): Promise<SealedSession | null>;
}

const HKDF_INFO = "sightline dashboard session cookie v1";
const PURPOSE = "dashboard-session";

export function createSessionSealer(secret: string, clock: Clock): SessionSealer {
  const key = new Uint8Array(hkdfSync("sha256", secret, "", HKDF_INFO, 32));
  return {
    async seal({ sessionId, userId, expiresAt }) {
      return new EncryptJWT({ sid: sessionId, purpose: PURPOSE })
        .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
        .setSubject(userId)
        .setIssuedAt(Math.floor(clock.now().getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .encrypt(key);
    },
    async unseal(value) {
      try {
        const { payload } = await jwtDecrypt(value, key, {
          keyManagementAlgorithms: ["dir"],
          contentEncryptionAlgorithms: ["A256GCM"],
          currentDate: clock.now(),
          requiredClaims: ["sub", "exp"],
        });
        const { sub, sid, purpose, exp } = payload;
        if (purpose !== PURPOSE || typeof sub !== "string" || typeof sid !== "string") return null;
        return { sessionId: sid, userId: sub, expiresAt: new Date((exp as number) * 1000) };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return null;
        throw error;
      }
    },
  };
}
