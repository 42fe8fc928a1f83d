// Environments of an app: configured by users (name, colour, order) and discovered from the
// environment names records carry. Names are normalised exactly like ingest normalises them,
// so a configured environment and its traffic always line up.
import {
  type CreateEnvironmentBody,
  type Environment,
  RESOURCE_LIMITS,
  type UpdateEnvironmentBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { firstFreeSlug, slugify } from "../../lib/slugs.js";
import {
  createEnvironmentsRepo,
  type EnvironmentRow,
} from "../../stores/metadata/repos/environments.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { AppScope } from "../access/index.js";
import type { AuditTrail } from "../audit/index.js";

export const DEFAULT_ENVIRONMENT_COLOR = "#6b7280";
const NO_RESERVED: ReadonlySet<string> = new Set();

/** How ingest and this module spell an environment: trimmed and lower-cased. */
export function normaliseEnvironmentName(name: string): string {
  return name.trim().toLowerCase();
}

function toEnvironment(row: EnvironmentRow): Environment {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    color: row.color,
    order: row.position,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface EnvironmentsServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

export function createEnvironmentsService({ db, clock, audit }: EnvironmentsServiceDeps) {
  const environments = createEnvironmentsRepo(db);
  /** Names known to exist per app, so repeated traffic costs no metadata query at all. */
  const known = new Map<string, Set<string>>();

  function rememberAll(appId: string, rows: readonly EnvironmentRow[]): Set<string> {
    const names = new Set(rows.map((row) => row.name));
    known.set(appId, names);
    return names;
  }

  async function findOrFail(appId: string, slug: string): Promise<EnvironmentRow> {
    const row = await environments.findBySlug(appId, slug);
    if (row === undefined) throw new AppError("not_found", `Environment "${slug}" not found.`);
    return row;
  }

  function assertNameUsable(name: string): void {
    if (name === "" || name.length > 64) {
      throw new AppError("validation_error", "The name must be 1–64 characters after trimming.", {
        errors: [{ pointer: "/name", message: "must be 1–64 characters after trimming" }],
      });
    }
  }

  function conflict(
    rows: readonly EnvironmentRow[],
    name: string,
    slug: string,
    exceptId?: string,
  ): AppError | null {
    const clash = rows.find((row) => row.id !== exceptId && (row.name === name || row.slug === slug));
    return clash === undefined
      ? null
      : new AppError("conflict", `Environment "${clash.name}" (${clash.slug}) already exists.`);
  }

  return {
    async list({ app }: AppScope): Promise<Environment[]> {
      return (await environments.list(app.id)).map(toEnvironment);
    },

    async create(scope: AppScope, body: CreateEnvironmentBody): Promise<Environment> {
      const appId = scope.app.id;
      const name = normaliseEnvironmentName(body.name);
      assertNameUsable(name);
      const rows = await environments.list(appId);
      if (rows.length >= RESOURCE_LIMITS.environmentsPerApp) {
        throw new AppError(
          "limit_reached",
          `An app may have at most ${RESOURCE_LIMITS.environmentsPerApp} environments.`,
        );
      }
      const slug =
        body.slug ??
        (await firstFreeSlug(slugify(name, "env"), NO_RESERVED, async (s) => rows.some((r) => r.slug === s)));
      const clash = conflict(rows, name, slug);
      if (clash !== null) throw clash;
      const now = toIsoTimestamp(clock.now());
      const row = await db.transaction().execute(async (trx) => {
        const inserted = await createEnvironmentsRepo(trx).insert({
          id: newId(),
          app_id: appId,
          name,
          slug,
          color: (body.color ?? DEFAULT_ENVIRONMENT_COLOR).toLowerCase(),
          position: body.order ?? rows.length,
          created_at: now,
          updated_at: now,
        });
        await audit.record(trx, {
          projectId: scope.project.id,
          actorId: scope.userId,
          action: "environment.created",
          target: { type: "environment", id: inserted.id, label: inserted.name },
          details: { app: scope.app.slug, slug },
        });
        return inserted;
      });
      known.get(appId)?.add(name);
      return toEnvironment(row);
    },

    async update({ app }: AppScope, slug: string, body: UpdateEnvironmentBody): Promise<Environment> {
      const appId = app.id;
      const current = await findOrFail(appId, slug);
      const name = body.name === undefined ? current.name : normaliseEnvironmentName(body.name);
      assertNameUsable(name);
      const nextSlug = body.slug ?? current.slug;
      const clash = conflict(await environments.list(appId), name, nextSlug, current.id);
      if (clash !== null) throw clash;
      const row = await environments.update(current.id, {
        name,
        slug: nextSlug,
        ...(body.color === undefined ? {} : { color: body.color.toLowerCase() }),
        ...(body.order === undefined ? {} : { position: body.order }),
        updated_at: toIsoTimestamp(clock.now()),
      });
      known.delete(appId);
      return toEnvironment(row);
    },

    /** Removes a configured environment; traffic that still names it discovers it again. */
    async remove(scope: AppScope, slug: string): Promise<void> {
      const appId = scope.app.id;
      const row = await findOrFail(appId, slug);
      await db.transaction().execute(async (trx) => {
        await createEnvironmentsRepo(trx).delete(row.id);
        await audit.record(trx, {
          projectId: scope.project.id,
          actorId: scope.userId,
          action: "environment.deleted",
          target: { type: "environment", id: row.id, label: row.name },
          details: { app: scope.app.slug, slug: row.slug },
        });
      });
      known.delete(appId);
    },

    /**
     * Registers environment names seen in traffic. Names already known cost nothing; new ones
     * are inserted in one statement, up to the per-app limit (records beyond it are still
     * stored; only the catalogue stops growing).
     */
    async ensure(appId: string, names: readonly string[]): Promise<void> {
      const wanted = [...new Set(names.map(normaliseEnvironmentName))].filter(
        (n) => n !== "" && n.length <= 64,
      );
      const cached = known.get(appId);
      if (cached !== undefined && wanted.every((name) => cached.has(name))) return;
      const rows = await environments.list(appId);
      const present = rememberAll(appId, rows);
      const missing = wanted.filter((name) => !present.has(name));
      const room = Math.max(0, RESOURCE_LIMITS.environmentsPerApp - rows.length);
      if (missing.length === 0 || room === 0) return;
      const slugs = new Set(rows.map((row) => row.slug));
      const now = toIsoTimestamp(clock.now());
      const inserts = [];
      for (const [i, name] of missing.slice(0, room).entries()) {
        const slug = await firstFreeSlug(slugify(name, "env"), NO_RESERVED, async (s) => slugs.has(s));
        slugs.add(slug);
        inserts.push({
          id: newId(),
          app_id: appId,
          name,
          slug,
          color: DEFAULT_ENVIRONMENT_COLOR,
          position: rows.length + i,
          created_at: now,
          updated_at: now,
        });
      }
      await environments.insertMissing(inserts);
      for (const row of inserts) present.add(row.name);
    },
  };
}

export type EnvironmentsService = ReturnType<typeof createEnvironmentsService>;
