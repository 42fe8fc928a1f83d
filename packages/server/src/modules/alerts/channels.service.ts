// A project's notification channels: e-mail (addresses and/or every member), generic webhooks
// signed with a per-channel secret (shown once), and Slack incoming webhooks. Targets are checked
// against the webhook guard when saved; every change is in the audit log.
import { randomBytes } from "node:crypto";
import {
  ALERT_LIMITS,
  type Channel,
  type ChannelType,
  type ChannelWithSecret,
  type CreateChannelBody,
  type FieldError,
  type UpdateChannelBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { invalidFields } from "./field-errors.js";
import { newOrderedId } from "../../lib/ids.js";
import {
  type ChannelRow,
  createNotificationChannelsRepo,
} from "../../stores/metadata/repos/notification-channels.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { type ProjectScope, reauthorize } from "../access/index.js";
import type { AuditTrail } from "../audit/index.js";
import type { ChannelTarget } from "./senders.js";
import { targetProblem } from "./target-guard.js";

export interface ChannelsServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly allowPrivateTargets: boolean;
}

interface StoredTarget {
  readonly addresses?: readonly string[];
  readonly all_members?: boolean;
  readonly url?: string;
}

function storedTarget(row: ChannelRow): StoredTarget {
  return JSON.parse(row.target) as StoredTarget;
}

/** A Slack webhook URL's path is its credential: only the host and the first segment show. */
export function maskUrl(type: ChannelType, url: string): string {
  if (type !== "slack") return url;
  const parsed = new URL(url);
  const [first] = parsed.pathname.split("/").filter((part) => part !== "");
  return `${parsed.protocol}//${parsed.host}/${first ?? ""}/…`;
}

export function toChannel(row: ChannelRow): Channel {
  const target = storedTarget(row);
  const type = row.type as ChannelType;
  return {
    id: row.id,
    name: row.name,
    type,
    addresses: [...(target.addresses ?? [])],
    all_members: target.all_members ?? false,
    url: target.url === undefined ? null : maskUrl(type, target.url),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What a sender needs of a channel; member addresses are looked up only when the channel asks. */
export async function channelTargetOf(
  row: ChannelRow,
  memberEmails: (projectId: string) => Promise<string[]>,
): Promise<ChannelTarget> {
  const target = storedTarget(row);
  const addresses = new Set((target.addresses ?? []).map((address) => address.toLowerCase()));
  if (target.all_members === true)
    for (const email of await memberEmails(row.project_id)) addresses.add(email);
  return {
    type: row.type as ChannelType,
    name: row.name,
    addresses: [...addresses],
    url: target.url ?? null,
    secret: row.secret,
  };
}

function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export function createChannelsService({ db, clock, audit, allowPrivateTargets }: ChannelsServiceDeps) {
  const channels = createNotificationChannelsRepo(db);

  /** The target of a channel of `type`, checked as a whole; throws 422 naming each problem. */
  function checkedTarget(type: ChannelType, input: StoredTarget, sent: ReadonlySet<string>): StoredTarget {
    const errors: FieldError[] = [];
    const problem = (field: string, message: string) => errors.push({ pointer: `/${field}`, message });
    if (type === "email") {
      for (const field of ["url"])
        if (sent.has(field)) problem(field, "applies to webhook and slack channels only");
      const addresses = (input.addresses ?? []).map((address) => address.trim().toLowerCase());
      if (addresses.length === 0 && input.all_members !== true)
        problem("addresses", "is required unless all_members is true");
      if (new Set(addresses).size !== addresses.length) problem("addresses", "must not repeat an address");
      if (errors.length === 0) return { addresses, all_members: input.all_members ?? false };
    } else {
      for (const field of ["addresses", "all_members"])
        if (sent.has(field)) problem(field, "applies to email channels only");
      if (input.url === undefined) problem("url", `is required for ${type} channels`);
      else {
        const reason = targetProblem(input.url, allowPrivateTargets);
        if (reason !== undefined) problem("url", reason);
      }
      if (errors.length === 0) return { url: new URL(input.url as string).toString() };
    }
    throw invalidFields(errors);
  }

  function blankName(): never {
    throw new AppError("validation_error", "/name must not be blank", {
      errors: [{ pointer: "/name", message: "must not be blank" }],
    });
  }

  async function findOrThrow(scope: ProjectScope, id: string): Promise<ChannelRow> {
    const row = await channels.find(scope.project.id, id);
    if (row === undefined) throw new AppError("not_found", `Notification channel ${id} not found.`);
    return row;
  }

  return {
    async list(scope: ProjectScope): Promise<Channel[]> {
      return (await channels.list(scope.project.id)).map(toChannel);
    },

    async get(scope: ProjectScope, id: string): Promise<Channel> {
      return toChannel(await findOrThrow(scope, id));
    },

    async create(scope: ProjectScope, body: CreateChannelBody): Promise<ChannelWithSecret> {
      const name = body.name.trim();
      if (name === "") blankName();
      const target = checkedTarget(body.type, body, new Set(Object.keys(body)));
      const nowDate = clock.now();
      const now = toIsoTimestamp(nowDate);
      const secret = body.type === "webhook" ? newSecret() : null;
      const row: ChannelRow = {
        // Time-ordered, so channels made in the same millisecond list in the order they were made.
        id: newOrderedId(nowDate.getTime()),
        project_id: scope.project.id,
        name,
        type: body.type,
        target: JSON.stringify(target),
        secret,
        created_at: now,
        updated_at: now,
      };
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "alerts:write");
        const repo = createNotificationChannelsRepo(trx);
        if ((await repo.count(scope.project.id)) >= ALERT_LIMITS.channelsPerProject) {
          throw new AppError(
            "limit_reached",
            `A project may have at most ${ALERT_LIMITS.channelsPerProject} notification channels.`,
          );
        }
        await repo.insert(row);
        await audit.record(trx, {
          projectId: scope.project.id,
          actorId: scope.userId,
          action: "notification_channel.created",
          target: { type: "notification_channel", id: row.id, label: name },
          details: { type: body.type },
        });
      });
      return { ...toChannel(row), ...(secret === null ? {} : { secret }) };
    },

    async update(scope: ProjectScope, id: string, body: UpdateChannelBody): Promise<ChannelWithSecret> {
      const row = await findOrThrow(scope, id);
      const type = row.type as ChannelType;
      if (body.rotate_secret === true && type !== "webhook") {
        throw new AppError("validation_error", "/rotate_secret applies to webhook channels only", {
          errors: [{ pointer: "/rotate_secret", message: "applies to webhook channels only" }],
        });
      }
      const name = body.name === undefined ? row.name : body.name.trim();
      if (name === "") blankName();
      const sent = new Set(Object.keys(body).filter((key) => key !== "name" && key !== "rotate_secret"));
      const target = checkedTarget(type, { ...storedTarget(row), ...body }, sent);
      const secret = body.rotate_secret === true ? newSecret() : row.secret;
      const changed = [
        ...(name !== row.name ? ["name"] : []),
        ...[...sent].filter((field) => field !== "rotate_secret"),
        ...(body.rotate_secret === true ? ["secret"] : []),
      ];
      const updated: ChannelRow = {
        ...row,
        name,
        target: JSON.stringify(target),
        secret,
        updated_at: toIsoTimestamp(clock.now()),
      };
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "alerts:write");
        await createNotificationChannelsRepo(trx).update(id, {
          name,
          target: updated.target,
          secret,
          updated_at: updated.updated_at,
        });
        if (changed.length > 0) {
          await audit.record(trx, {
            projectId: scope.project.id,
            actorId: scope.userId,
            action: "notification_channel.updated",
            target: { type: "notification_channel", id, label: name },
            details: { changed },
          });
        }
      });
      return { ...toChannel(updated), ...(body.rotate_secret === true && secret !== null ? { secret } : {}) };
    },

    async delete(scope: ProjectScope, id: string): Promise<void> {
      const row = await findOrThrow(scope, id);
      await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "alerts:write");
        // Rules stop naming it (cascade); notifications already recorded keep its name.
        await createNotificationChannelsRepo(trx).delete(id);
        await audit.record(trx, {
          projectId: scope.project.id,
          actorId: scope.userId,
          action: "notification_channel.deleted",
          target: { type: "notification_channel", id, label: row.name },
          details: { type: row.type },
        });
      });
    },
  };
}

export type ChannelsService = ReturnType<typeof createChannelsService>;
