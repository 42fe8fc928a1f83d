// Wire shapes of the users routes: the profile, the user context, the picture, the password
// and the session list of the signed-in user.
import { type Static, Type } from "typebox";
import { TokenPairSchema } from "./auth.js";
import { ProjectAccessSchema } from "./roles.js";

const Id = Type.String({ format: "uuid", examples: ["0b6f7c1e-3d2a-4f8e-9b1c-5a7d2e4f6a81"] });
const Timestamp = Type.String({ format: "date-time", examples: ["2026-05-27T10:00:00.123Z"] });
const Picture = Type.String({
  description: "URL of the profile picture (256x256 WebP), or an empty string when none is set.",
  examples: [
    "https://sightline.example.com/api/v1/users/0b6f7c1e-3d2a-4f8e-9b1c-5a7d2e4f6a81/picture?v=1748340000123",
  ],
});
const Name = Type.String({ maxLength: 150, examples: ["Ada"] });

export const UserProfileSchema = Type.Object(
  {
    id: Id,
    email: Type.String({ examples: ["ada@example.com"] }),
    first_name: Type.String({ examples: ["Ada"] }),
    last_name: Type.String({ examples: ["Lovelace"] }),
    display_name: Type.String({
      description: "First and last name, else the local part of the e-mail address.",
      examples: ["Ada Lovelace"],
    }),
    picture: Picture,
    email_verified: Type.Boolean({ examples: [true] }),
    has_password: Type.Boolean({ description: "Whether password login is possible.", examples: [false] }),
    timezone: Type.String({ description: "IANA time zone.", examples: ["Europe/London"] }),
    created_at: Timestamp,
    last_login_at: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);
export type UserProfile = Static<typeof UserProfileSchema>;

export const UpdateProfileBodySchema = Type.Object(
  {
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Type.String({ maxLength: 150, examples: ["Lovelace"] })),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "IANA time zone name, any letter case; the default zone of time series. Only zones the events " +
          "engine can also load are accepted (a few legacy names such as `SystemV/AST4` are not).",
        examples: ["Europe/London"],
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBodySchema>;

export const UserContextSchema = Type.Object(
  {
    id: Id,
    email: Type.String({ examples: ["ada@example.com"] }),
    display_name: Type.String({ examples: ["Ada Lovelace"] }),
    picture: Picture,
    is_authenticated: Type.Boolean({ examples: [true] }),
    permissions: Type.Array(Type.String(), { default: [], examples: [[]] }),
    role: Type.String({
      default: "member",
      description: "Always `member`: roles are per project (see `projects`).",
      examples: ["member"],
    }),
    projects: Type.Array(ProjectAccessSchema, {
      description: "Every project the caller belongs to, with their role and its permissions.",
    }),
  },
  { additionalProperties: false },
);
export type UserContext = Static<typeof UserContextSchema>;

export const PictureResultSchema = Type.Object(
  { picture: Picture, message: Type.String({ examples: ["Profile picture updated"] }) },
  { additionalProperties: false },
);
export type PictureResult = Static<typeof PictureResultSchema>;

export const PictureUploadSchema = Type.Object(
  {
    file: Type.String({
      format: "binary",
      description: "PNG, JPEG, WebP or GIF, at most 5 MB; the bytes decide the type.",
    }),
  },
  { description: "multipart/form-data with one file field `file`." },
);

export const ChangePasswordBodySchema = Type.Object(
  {
    new_password: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: "At least 10 characters, not only digits, not the e-mail address.",
      examples: ["correct horse battery"],
    }),
    confirm_password: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: "Must equal `new_password`.",
      examples: ["correct horse battery"],
    }),
    current_password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: "Required when the account already has a password.",
        examples: ["the old one, 2024"],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>;

export const PasswordChangedSchema = Type.Object(
  {
    message: Type.String({ examples: ["Password updated; your other sessions were signed out."] }),
    ...TokenPairSchema.properties,
  },
  { additionalProperties: false },
);
export type PasswordChanged = Static<typeof PasswordChangedSchema>;

export const SessionSchema = Type.Object(
  {
    id: Id,
    device_info: Type.String({ examples: ["Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Firefox/126.0"] }),
    last_used_at: Timestamp,
    created_at: Timestamp,
    ip_address: Type.String({ description: "Client address when last used.", examples: ["203.0.113.7"] }),
    location: Type.String({
      default: "",
      description: "Always empty: Sightline does not geolocate.",
      examples: [""],
    }),
    is_current: Type.Boolean({
      default: false,
      description: "true for the session of the calling token.",
      examples: [true],
    }),
  },
  { additionalProperties: false },
);
export type Session = Static<typeof SessionSchema>;

export const SessionListSchema = Type.Array(SessionSchema);
export type SessionList = Static<typeof SessionListSchema>;

export const SessionParamsSchema = Type.Object({
  session_id: Type.String({ format: "uuid", examples: ["6a1f0c52-7f43-4d4b-9a57-1f1d1f0b8f0e"] }),
});
export type SessionParams = Static<typeof SessionParamsSchema>;

export const UserPictureParamsSchema = Type.Object({
  user_id: Type.String({ format: "uuid", examples: ["0b6f7c1e-3d2a-4f8e-9b1c-5a7d2e4f6a81"] }),
});
export type UserPictureParams = Static<typeof UserPictureParamsSchema>;
