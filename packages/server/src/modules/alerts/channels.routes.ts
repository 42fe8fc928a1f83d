// Routes of notification channels under /projects/{slug}/notification-channels. Thin: schema +
// one service call.
import {
  ChannelSchema,
  ChannelWithSecretSchema,
  CreateChannelBodySchema,
  MessageSchema,
  UpdateChannelBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf, withParams } from "../access/index.js";
import type { ChannelsService } from "./channels.service.js";

const ChannelParams = withParams(ProjectParams, {
  channel_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});

export async function channelsRoutes(app: App, { channels }: { channels: ChannelsService }): Promise<void> {
  app.post(
    "/projects/:project_slug/notification-channels",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "createNotificationChannel",
        tags: ["notification-channels"],
        summary: "Create a notification channel",
        description:
          "`email` needs `addresses` or `all_members`; `webhook` and `slack` need `url` (http or https; " +
          "loopback, link-local and private addresses are refused unless ALERTS_ALLOW_PRIVATE_TARGETS is " +
          "set). A webhook's signing `secret` is in this answer only. At most 50 per project.",
        params: ProjectParams,
        body: CreateChannelBodySchema,
        response: { 201: ChannelWithSecretSchema, ...problemResponses(422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await channels.create(projectScopeOf(request), request.body)),
  );

  app.get(
    "/projects/:project_slug/notification-channels",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "listNotificationChannels",
        tags: ["notification-channels"],
        summary: "List notification channels",
        description: "Oldest first. Secrets are never listed; Slack URLs are masked.",
        params: ProjectParams,
        response: { 200: Type.Array(ChannelSchema) },
      },
    },
    async (request) => channels.list(projectScopeOf(request)),
  );

  app.get(
    "/projects/:project_slug/notification-channels/:channel_id",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "getNotificationChannel",
        tags: ["notification-channels"],
        summary: "Get a notification channel",
        params: ChannelParams,
        response: { 200: ChannelSchema, ...problemResponses(422) },
      },
    },
    async (request) => channels.get(projectScopeOf(request), request.params.channel_id),
  );

  app.patch(
    "/projects/:project_slug/notification-channels/:channel_id",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "updateNotificationChannel",
        tags: ["notification-channels"],
        summary: "Change a notification channel",
        description:
          "The type cannot change. `rotate_secret: true` gives a webhook a new signing secret, shown in " +
          "this answer only; the old one stops signing at once.",
        params: ChannelParams,
        body: UpdateChannelBodySchema,
        response: { 200: ChannelWithSecretSchema, ...problemResponses(422) },
      },
    },
    async (request) => channels.update(projectScopeOf(request), request.params.channel_id, request.body),
  );

  app.delete(
    "/projects/:project_slug/notification-channels/:channel_id",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "deleteNotificationChannel",
        tags: ["notification-channels"],
        summary: "Delete a notification channel",
        description: "Rules stop notifying it; notifications not yet sent to it are cancelled.",
        params: ChannelParams,
        response: { 200: MessageSchema, ...problemResponses(422) },
      },
    },
    async (request) => {
      await channels.delete(projectScopeOf(request), request.params.channel_id);
      return { message: "Notification channel deleted" };
    },
  );
}
