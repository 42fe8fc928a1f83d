// The parameters every /apps/{app_slug}/… route shares: the app slug, and `?project=` to pick
// among projects when the caller has apps with the same slug in several of them.
import { Type } from "typebox";
import { type AuthContext, requireAuth } from "../../http/bearer-auth.js";
import type { ProjectAction } from "../projects/access.js";
import type { AppsService, ResolvedApp } from "./apps.service.js";

export const AppParams = Type.Object({
  app_slug: Type.String({ maxLength: 200, examples: ["checkout-api"] }),
});

export const AppScopeQuery = Type.Object({
  project: Type.Optional(
    Type.String({
      maxLength: 200,
      description: "Project slug; needed only when the app slug exists in several of your projects.",
      examples: ["shop"],
    }),
  ),
});

type AppScopedRequest = {
  auth: AuthContext | null;
  params: { app_slug: string };
  query: { project?: string | undefined };
};

/** The app (with its project) a `/apps/{app_slug}/…` request addresses, checked for `action`. */
export function resolveAppFor(
  apps: AppsService,
  request: AppScopedRequest,
  action: ProjectAction,
): Promise<ResolvedApp> {
  return apps.resolveAccessible(
    requireAuth(request).userId,
    request.params.app_slug,
    request.query.project,
    action,
  );
}

/** The id of the app a `/apps/{app_slug}/…` request addresses, checked for `action`. */
export async function appIdFor(
  apps: AppsService,
  request: AppScopedRequest,
  action: ProjectAction,
): Promise<string> {
  return (await resolveAppFor(apps, request, action)).app.id;
}
