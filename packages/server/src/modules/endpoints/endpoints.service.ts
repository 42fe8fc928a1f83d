// The endpoint catalogue of an app: endpoints users declare and those discovered from traffic,
// one per (method, route template). Discovery is batched and cached: repeated traffic writes
// nothing, and `last_seen_at` moves forward at most once a minute per endpoint.
import {
  type CreateEndpointBody,
  type Endpoint,
  RESOURCE_LIMITS,
  type UpdateEndpointBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { createEndpointsRepo, type EndpointRow } from "../../stores/metadata/repos/endpoints.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { AppScope } from "../access/index.js";
import type { DiscoveredEndpoint } from "../ingest/index.js";

const SEEN_REFRESH_MS = 60_000;
/** Bounds the in-memory catalogue; evicted entries only cost one more upsert. */
const MAX_CACHED = 100_000;

function toEndpoint(row: EndpointRow): Endpoint {
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    description: row.description,
    is_active: row.deactivated_at === null,
    last_seen_at: row.last_seen_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const routeKey = (appId: string, method: string, path: string) => `${appId} ${method} ${path}`;

export function createEndpointsService({ db, clock }: { db: Kysely<MetadataTables>; clock: Clock }) {
  const endpoints = createEndpointsRepo(db);
  /** Per (app, method, path): the last `last_seen_at` written, in epoch ms. */
  const written = new Map<string, number>();

  async function findOrFail(appId: string, id: string): Promise<EndpointRow> {
    const row = await endpoints.find(appId, id);
    if (row === undefined) throw new AppError("not_found", `Endpoint ${id} not found.`);
    return row;
  }

  function assertRouteSize(path: string): void {
    if (Buffer.byteLength(path, "utf8") > RESOURCE_LIMITS.routeTemplateBytes) {
      throw new AppError("validation_error", "The route template is too long.", {
        errors: [
          {
            pointer: "/path",
            message: `must be at most ${RESOURCE_LIMITS.routeTemplateBytes} bytes of UTF-8`,
          },
        ],
      });
    }
  }

  async function assertRouteFree(
    appId: string,
    method: string,
    path: string,
    exceptId?: string,
  ): Promise<void> {
    const existing = await endpoints.findByRoute(appId, method, path);
    if (existing !== undefined && existing.id !== exceptId) {
      throw new AppError("conflict", `${method} ${path} already exists in this app.`);
    }
  }

  return {
    async list({ app }: AppScope): Promise<Endpoint[]> {
      return (await endpoints.list(app.id)).map(toEndpoint);
    },

    async get({ app }: AppScope, id: string): Promise<Endpoint> {
      return toEndpoint(await findOrFail(app.id, id));
    },

    async create({ app }: AppScope, body: CreateEndpointBody): Promise<Endpoint> {
      const appId = app.id;
      const method = body.method.toUpperCase();
      assertRouteSize(body.path);
      await assertRouteFree(appId, method, body.path);
      const now = toIsoTimestamp(clock.now());
      const row = await endpoints.insert({
        id: newId(),
        app_id: appId,
        method,
        path: body.path,
        description: body.description?.trim() ?? "",
        deactivated_at: null,
        last_seen_at: null,
        created_at: now,
        updated_at: now,
      });
      return toEndpoint(row);
    },

    async update({ app }: AppScope, id: string, body: UpdateEndpointBody): Promise<Endpoint> {
      const appId = app.id;
      const current = await findOrFail(appId, id);
      const method = body.method?.toUpperCase() ?? current.method;
      const path = body.path ?? current.path;
      assertRouteSize(path);
      if (method !== current.method || path !== current.path) await assertRouteFree(appId, method, path, id);
      const now = toIsoTimestamp(clock.now());
      const row = await endpoints.update(id, {
        method,
        path,
        ...(body.description === undefined ? {} : { description: body.description.trim() }),
        ...(body.is_active === undefined
          ? {}
          : { deactivated_at: body.is_active ? null : (current.deactivated_at ?? now) }),
        updated_at: now,
      });
      written.delete(routeKey(appId, current.method, current.path));
      return toEndpoint(row);
    },

    /** Removes an endpoint from the catalogue; traffic that still reaches it discovers it again. */
    async remove({ app }: AppScope, id: string): Promise<void> {
      const appId = app.id;
      const row = await findOrFail(appId, id);
      await endpoints.delete(id);
      written.delete(routeKey(appId, row.method, row.path));
    },

    async ensure(appId: string, seen: readonly DiscoveredEndpoint[]): Promise<void> {
      const newest = new Map<string, DiscoveredEndpoint>();
      for (const endpoint of seen) {
        const key = routeKey(appId, endpoint.method, endpoint.path);
        const current = newest.get(key);
        if (current === undefined || endpoint.seenAt > current.seenAt) newest.set(key, endpoint);
      }
      const due = [...newest].filter(([key, endpoint]) => {
        const last = written.get(key);
        return last === undefined || Date.parse(endpoint.seenAt) - last >= SEEN_REFRESH_MS;
      });
      if (due.length === 0) return;
      const now = toIsoTimestamp(clock.now());
      await endpoints.upsertSeen(
        due.map(([, endpoint]) => ({
          id: newId(),
          app_id: appId,
          method: endpoint.method,
          path: endpoint.path,
          description: "",
          deactivated_at: null,
          last_seen_at: endpoint.seenAt,
          created_at: now,
          updated_at: now,
        })),
      );
      for (const [key, endpoint] of due) {
        if (written.size >= MAX_CACHED) written.delete(written.keys().next().value as string);
        written.set(key, Date.parse(endpoint.seenAt));
      }
    },
  };
}

export type EndpointsService = ReturnType<typeof createEndpointsService>;
