// Token material of the identity module: opaque tokens (magic links, refresh tokens) of which
// only a SHA-256 digest is stored, and the short-lived JWT access tokens signed with jose.
import { randomBytes } from "node:crypto";
import { ACCESS_TOKEN_TTL_SECONDS } from "@sightline/contracts";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Clock } from "../../clock.js";
import { sha256Hex } from "../../lib/ids.js";

/** 32 random bytes: 256 bits, beyond guessing; base64url so it survives URLs and e-mail. */
const OPAQUE_TOKEN_BYTES = 32;

export interface OpaqueToken {
  /** Given to the client once; never stored. */
  readonly token: string;
  /** SHA-256 hex of `token`: what the metadata store keeps and looks up by. */
  readonly hash: string;
}

export function createOpaqueToken(): OpaqueToken {
  const token = randomBytes(OPAQUE_TOKEN_BYTES).toString("base64url");
  return { token, hash: hashToken(token) };
}

/** A fast hash is enough: the input has 256 bits of entropy, so there is nothing to brute-force. */
export function hashToken(token: string): string {
  return sha256Hex(token);
}

export interface AccessClaims {
  readonly userId: string;
  readonly email: string;
  readonly sessionId: string;
}

export interface AccessTokenSigner {
  sign(claims: AccessClaims): Promise<string>;
  /** The claims of a well-signed, unexpired access token; null for anything else. */
  verify(token: string): Promise<AccessClaims | null>;
}

const ALGORITHM = "HS256";

export function createAccessTokenSigner(secret: string, clock: Clock): AccessTokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    async sign({ userId, email, sessionId }) {
      const issuedAt = Math.floor(clock.now().getTime() / 1000);
      return new SignJWT({ email, sid: sessionId, type: "access" })
        .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
        .setSubject(userId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          currentDate: clock.now(),
          requiredClaims: ["sub", "exp", "iat"],
        });
        const { sub, email, sid, type } = payload;
        if (type !== "access" || typeof sub !== "string" || typeof sid !== "string") return null;
        if (typeof email !== "string") return null;
        return { userId: sub, email, sessionId: sid };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return null;
        throw error;
      }
    },
  };
}
