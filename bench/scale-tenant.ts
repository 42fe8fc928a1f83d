// The metadata rows that let a person open bench:scale's big tenant in the dashboard: the project
// and apps under the ids its request records carry (bench:scale writes events only), and the
// person as the project's owner. Idempotent, so a kept data directory can be opened again.
import { newId } from "../packages/server/src/lib/ids.js";
import { createAppsRepo } from "../packages/server/src/stores/metadata/repos/apps.repo.js";
import { createMembersRepo } from "../packages/server/src/stores/metadata/repos/members.repo.js";
import { createProjectsRepo } from "../packages/server/src/stores/metadata/repos/projects.repo.js";
import { createUsersRepo } from "../packages/server/src/stores/metadata/repos/users.repo.js";
import type { MetadataStore } from "../packages/server/src/stores/metadata/index.js";
import { SCALE_APPS } from "./scale-dataset.js";

/** The big tenant as the dashboard names it (bench:scale's in-process scopes use the same slugs). */
export const SCALE_BIG = {
  projectId: SCALE_APPS[0]?.projectId ?? "",
  slug: "big",
  // app_scale_big_api is "big-api", app_scale_big_web "big-web".
  apps: SCALE_APPS.filter((app) => app.projectId === SCALE_APPS[0]?.projectId).map((app) => ({
    id: app.appId,
    slug: app.appId.replace(/^app_scale_/, "").replaceAll("_", "-"),
  })),
} as const;

/** Makes `email` a live user owning the big tenant's project and apps; answers the project's slug. */
export async function adoptScaleTenant(db: MetadataStore["db"], email: string, now: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const user = await createUsersRepo(trx).insertOrFindLive({ id: newId(), email, now });
    const found = await trx
      .selectFrom("projects")
      .select(["id", "slug", "deleted_at"])
      .where("id", "=", SCALE_BIG.projectId)
      .executeTakeFirst();
    if (found === undefined) {
      await createProjectsRepo(trx).insert({
        id: SCALE_BIG.projectId,
        owner_id: user.id,
        name: "Big (bench:scale)",
        slug: SCALE_BIG.slug,
        description: "",
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
    } else if (found.deleted_at !== null) {
      throw new Error(`project ${SCALE_BIG.projectId} is deleted in this data directory`);
    }
    const apps = createAppsRepo(trx);
    const live = new Set((await apps.listLive(SCALE_BIG.projectId)).map((app) => app.id));
    for (const app of SCALE_BIG.apps) {
      if (live.has(app.id)) continue;
      await apps.insert({
        id: app.id,
        project_id: SCALE_BIG.projectId,
        name: app.slug,
        slug: app.slug,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
    }
    const members = createMembersRepo(trx);
    if ((await members.find(SCALE_BIG.projectId, user.id)) === undefined) {
      await members.insert({
        project_id: SCALE_BIG.projectId,
        user_id: user.id,
        role: "owner",
        joined_at: now,
      });
    }
    return found?.slug ?? SCALE_BIG.slug;
  });
}
