// Routes of the signed-in user's sessions (devices): list them, sign one out, sign out all or all
// but this one. The auth service owns sessions; these routes live beside it.
import { MessageSchema, SessionListSchema, SessionParamsSchema } from "@sightline/contracts";
import { requireSession } from "../../http/bearer-auth.js";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access } from "../access/index.js";
import type { AuthService } from "./auth.service.js";

export async function sessionsRoutes(app: App, { auth }: { auth: AuthService }): Promise<void> {
  app.get(
    "/users/sessions",
    {
      config: { access: access.session },
      schema: {
        operationId: "listSessions",
        tags: ["sessions"],
        summary: "The signed-in devices, most recently used first",
        description: "Live sessions only (neither signed out nor expired); `is_current` marks the caller's.",
        response: { 200: SessionListSchema },
      },
    },
    async (request) => auth.listSessions(requireSession(request)),
  );

  app.delete(
    "/users/sessions/:session_id",
    {
      config: { access: access.session },
      schema: {
        operationId: "revokeSession",
        tags: ["sessions"],
        summary: "Sign out one session",
        description:
          "Its refresh token and access tokens stop working at once. 404 for an unknown session, one " +
          "already signed out, or another user's.",
        params: SessionParamsSchema,
        response: { 200: MessageSchema, ...problemResponses(404, 422) },
      },
    },
    async (request) => auth.revokeSession(requireSession(request), request.params.session_id),
  );

  app.post(
    "/users/logout-all",
    {
      config: { access: access.session },
      schema: {
        operationId: "logoutAllSessions",
        tags: ["sessions"],
        summary: "Sign out every session, this one included",
        response: { 200: MessageSchema },
      },
    },
    async (request) => auth.logoutAll(requireSession(request)),
  );

  app.post(
    "/users/logout-others",
    {
      config: { access: access.session },
      schema: {
        operationId: "logoutOtherSessions",
        tags: ["sessions"],
        summary: "Sign out every session except this one",
        response: { 200: MessageSchema },
      },
    },
    async (request) => auth.logoutOthers(requireSession(request)),
  );
}
