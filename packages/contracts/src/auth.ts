// Wire shapes of the auth routes: magic-link sign-in, password login, refresh rotation,
// token validation and logout. Lifetimes are fixed by the server, not by these schemas.
import { type Static, Type } from "typebox";

/** Access tokens live 15 minutes; `expires_in` of every token response says so in seconds. */
export const ACCESS_TOKEN_TTL_SECONDS = 900;

const Email = Type.String({
  format: "email",
  maxLength: 254,
  description: "E-mail address; compared without regard to case.",
  examples: ["ada@example.com"],
});

const DeviceInfo = Type.String({
  maxLength: 255,
  description: "Label of the device shown in the session list; defaults to the User-Agent.",
  examples: ["Firefox on macOS"],
});

const RememberMe = Type.Boolean({
  default: true,
  description: "true: the session lasts 30 days; false: 24 hours. Refreshing never extends it.",
  examples: [true],
});

const RefreshToken = Type.String({
  minLength: 1,
  maxLength: 512,
  description: "Opaque refresh token from a token response; single use.",
  examples: ["q3Jb0m6yB8Qe0Wc1nI7Hj4V2kXz9sT5rLpA0dF6gUuE"],
});

const AccessToken = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: "JWT access token from a token response.",
  examples: ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl"],
});

export const MagicLinkBodySchema = Type.Object({ email: Email }, { additionalProperties: false });
export type MagicLinkBody = Static<typeof MagicLinkBodySchema>;

export const VerifyBodySchema = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 512,
      description: "The token from the sign-in e-mail (the `token` query parameter of its link).",
      examples: ["kV7hQ2mZ0pY4sW9cT1bN6xR3fJ8uL5aE0dG2iK7oMqS"],
    }),
    device_info: Type.Optional(DeviceInfo),
    remember_me: Type.Optional(RememberMe),
  },
  { additionalProperties: false },
);
export type VerifyBody = Static<typeof VerifyBodySchema>;

export const LoginBodySchema = Type.Object(
  {
    email: Email,
    password: Type.String({ minLength: 1, maxLength: 1024, examples: ["correct horse battery"] }),
    device_info: Type.Optional(DeviceInfo),
    remember_me: Type.Optional(RememberMe),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBodySchema>;

export const RefreshBodySchema = Type.Object(
  { refresh_token: RefreshToken },
  { additionalProperties: false },
);
export type RefreshBody = Static<typeof RefreshBodySchema>;

export const LogoutBodySchema = RefreshBodySchema;
export type LogoutBody = RefreshBody;

export const ValidateBodySchema = Type.Object(
  {
    refresh_token: Type.Optional(RefreshToken),
    access_token: Type.Optional(AccessToken),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    description: "Exactly one of `refresh_token` or `access_token`.",
  },
);
export type ValidateBody = Static<typeof ValidateBodySchema>;

export const ValidateResultSchema = Type.Object(
  {
    valid: Type.Boolean({
      description: "true while the token would be accepted (not expired, not used, session alive).",
      examples: [true],
    }),
  },
  { additionalProperties: false },
);
export type ValidateResult = Static<typeof ValidateResultSchema>;

export const TokenPairSchema = Type.Object(
  {
    access_token: Type.String({
      description: "JWT for `Authorization: Bearer`; valid 15 minutes while its session lives.",
      examples: ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl"],
    }),
    refresh_token: Type.String({
      description: "Single-use token for POST /auth/refresh; keep it secret.",
      examples: ["q3Jb0m6yB8Qe0Wc1nI7Hj4V2kXz9sT5rLpA0dF6gUuE"],
    }),
    token_type: Type.Literal("Bearer", { examples: ["Bearer"] }),
    expires_in: Type.Integer({ description: "Seconds the access token is valid.", examples: [900] }),
  },
  { additionalProperties: false },
);
export type TokenPair = Static<typeof TokenPairSchema>;
