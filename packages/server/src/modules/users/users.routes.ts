// Routes of /users/me and /users/context: the signed-in user's profile, context, picture and
// password, plus the one public route, a user's picture, which <img> tags load without a token.
// Sessions have their own route file in the auth module; invitations in the invitations module.
import multipart, { type MultipartFile } from "@fastify/multipart";
import {
  ChangePasswordBodySchema,
  MessageSchema,
  PasswordChangedSchema,
  PictureResultSchema,
  PictureUploadSchema,
  UpdateProfileBodySchema,
  UserContextSchema,
  UserPictureParamsSchema,
  UserProfileSchema,
} from "@sightline/contracts";
import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { AppError } from "../../errors.js";
import { requireAuth, requireSession } from "../../http/bearer-auth.js";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access } from "../access/index.js";
import type { AuthService } from "../auth/index.js";
import { MAX_PICTURE_BYTES } from "./picture.js";
import type { UsersService } from "./users.service.js";

export interface UsersRoutesOptions {
  readonly users: UsersService;
  readonly auth: AuthService;
}

export async function usersRoutes(app: App, { users, auth }: UsersRoutesOptions): Promise<void> {
  // Multipart is accepted in this scope only, for the picture upload; busboy enforces the size.
  await app.register(multipart, {
    limits: { fileSize: MAX_PICTURE_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  });
  const user = { config: { access: access.user } };
  // Deleting the account or changing its password needs a signed-in session, not a token.
  const session = { config: { access: access.session } };

  app.get(
    "/users/me",
    {
      ...user,
      schema: {
        operationId: "getCurrentUser",
        tags: ["users"],
        summary: "The signed-in user's profile",
        response: { 200: UserProfileSchema },
      },
    },
    async (request) => users.getProfile(requireAuth(request).userId),
  );

  app.patch(
    "/users/me",
    {
      ...user,
      schema: {
        operationId: "updateCurrentUser",
        tags: ["users"],
        summary: "Update names or time zone",
        description:
          "Absent fields stay as they are. Names are trimmed (at most 150 characters); `timezone` must " +
          "be an IANA zone name and is stored in its canonical spelling.",
        body: UpdateProfileBodySchema,
        response: { 200: UserProfileSchema, ...problemResponses(422) },
      },
    },
    async (request) => users.updateProfile(requireAuth(request).userId, request.body),
  );

  app.delete(
    "/users/me",
    {
      ...session,
      schema: {
        operationId: "deleteCurrentUser",
        tags: ["users"],
        summary: "Delete the account",
        description:
          "Ends every session and revokes every personal access token at once, removes the profile, " +
          "password and picture, and soft-deletes the " +
          "projects only this user owns (their API keys stop working). The address can sign up again " +
          "as a new, empty account. See the README for what remains.",
        response: { 200: MessageSchema },
      },
    },
    async (request) => users.deleteAccount(requireAuth(request).userId),
  );

  app.get(
    "/users/context",
    {
      ...user,
      schema: {
        operationId: "getUserContext",
        tags: ["users"],
        summary: "Who is calling: identity, role and permissions",
        response: { 200: UserContextSchema },
      },
    },
    async (request) => users.getContext(requireAuth(request)),
  );

  app.post(
    "/users/me/picture",
    {
      ...user,
      // The body is a multipart stream read by the handler; the schema is for the reference.
      validatorCompiler: () => () => true,
      schema: {
        operationId: "uploadProfilePicture",
        tags: ["users"],
        summary: "Set the profile picture",
        description:
          "multipart/form-data with one file field `file`: PNG, JPEG, WebP or GIF, at most 5 MB. The " +
          "file's bytes decide its type (415 otherwise; 413 when larger; 422 when it cannot be " +
          "decoded). It is stored re-encoded as a 256x256 WebP without metadata.",
        consumes: ["multipart/form-data"],
        body: PictureUploadSchema,
        response: { 200: PictureResultSchema, ...problemResponses(413, 415, 422) },
      },
    },
    async (request) => users.setPicture(requireAuth(request).userId, await readPictureUpload(request)),
  );

  app.delete(
    "/users/me/picture",
    {
      ...user,
      schema: {
        operationId: "deleteProfilePicture",
        tags: ["users"],
        summary: "Remove the profile picture",
        description: "Idempotent: answers 200 when there is none.",
        response: { 200: MessageSchema },
      },
    },
    async (request) => users.removePicture(requireAuth(request).userId),
  );

  app.get(
    "/users/:user_id/picture",
    {
      config: { access: access.public },
      schema: {
        operationId: "getUserPicture",
        tags: ["users"],
        summary: "A user's profile picture (no token needed)",
        description:
          "The URL in `picture` of the profile. With the `v` it carries, the answer may be cached " +
          "forever; a new upload changes `v`.",
        params: UserPictureParamsSchema,
        querystring: Type.Object({
          v: Type.Optional(Type.String({ maxLength: 32, examples: ["1748340000123"] })),
        }),
        response: {
          200: {
            description: "The picture, 256x256 WebP.",
            content: { "image/webp": { schema: Type.Unsafe<Buffer>({ type: "string", format: "binary" }) } },
          },
          ...problemResponses(404, 422),
        },
      },
    },
    async (request, reply) => {
      const picture = await users.getPicture(request.params.user_id);
      const current = request.query.v === String(Date.parse(picture.updatedAt));
      return reply
        .type(picture.contentType)
        .header("cache-control", current ? "public, max-age=31536000, immutable" : "no-cache")
        .header("x-content-type-options", "nosniff")
        .send(picture.bytes);
    },
  );

  app.post(
    "/users/me/password",
    {
      ...session,
      schema: {
        operationId: "setPassword",
        tags: ["users"],
        summary: "Set a first password or change it",
        description:
          "At least 10 characters, not only digits, not the e-mail address; `confirm_password` must match. " +
          "Changing an existing password requires `current_password` (a wrong one answers 422 and counts " +
          "towards the login lockout). Signs out every other session and answers a fresh token pair for " +
          "this one; its earlier refresh token is retired.",
        body: ChangePasswordBodySchema,
        response: { 200: PasswordChangedSchema, ...problemResponses(422, 429) },
      },
    },
    async (request, reply) => {
      const result = await auth.changePassword(requireSession(request), request.body);
      return reply.header("cache-control", "no-store").send(result);
    },
  );
}

/** The bytes of the multipart field `file`, with upload limits mapped to problems. */
async function readPictureUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) {
    throw new AppError(
      "unsupported_media_type",
      "Send the picture as multipart/form-data with a field `file`.",
    );
  }
  let file: MultipartFile | undefined;
  try {
    file = await request.file();
    if (file === undefined || file.fieldname !== "file") {
      throw new AppError("validation_error", "The multipart body has no file field `file`.", {
        errors: [{ pointer: "/file", message: "is required" }],
      });
    }
    return await file.toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") {
      throw new AppError("payload_too_large", "The picture is larger than 5 MB.");
    }
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") {
      throw new AppError("payload_too_large", "Send one file field `file` and nothing else of size.");
    }
    throw new AppError("bad_request", "The multipart body cannot be read.", { cause: error });
  }
}
