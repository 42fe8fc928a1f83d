// The request parameters that name a scope, shared by every project and app route: the access
// plugin reads them, so each route's schema must declare them (registration checks it).
import { type TObject, type TProperties, Type } from "typebox";

const ProjectSlug = Type.String({ maxLength: 200, examples: ["shop"] });
const AppSlug = Type.String({ maxLength: 200, examples: ["checkout-api"] });

/** `/projects/{project_slug}/…` */
export const ProjectParams = Type.Object({ project_slug: ProjectSlug });

/** `/projects/{project_slug}/apps/{app_slug}/…` */
export const ProjectAppParams = Type.Object({ project_slug: ProjectSlug, app_slug: AppSlug });

/** `/apps/{app_slug}/…` */
export const AppParams = Type.Object({ app_slug: AppSlug });

/** Path parameters of a scope plus the route's own, e.g. `withParams(AppParams, {key_id})`. */
export function withParams<S extends TProperties, P extends TProperties>(scope: TObject<S>, own: P) {
  return Type.Object({ ...scope.properties, ...own });
}

/** `?project=` picks among the caller's projects when an app slug exists in several. */
export const AppScopeQuery = Type.Object({
  project: Type.Optional(
    Type.String({
      maxLength: 200,
      description: "Project slug; needed only when the app slug exists in several of your projects.",
      examples: ["shop"],
    }),
  ),
});

/** An app route's query: its own parameters plus `?project=`. */
export function withProject<P extends TProperties>(schema: TObject<P>) {
  return Type.Object({ ...AppScopeQuery.properties, ...schema.properties }, { additionalProperties: false });
}
