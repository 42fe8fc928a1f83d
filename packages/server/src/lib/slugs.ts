// Slugs: URL-safe names of projects, apps and environments. Generated from names when not
// given (never colliding, never reserved); validated and reported when given.
import { SLUG_PATTERN } from "@sightline/contracts";

export const MAX_SLUG_LENGTH = 64;
const VALID_SLUG = new RegExp(SLUG_PATTERN);

/** Project slugs that would shadow routes or pages of the dashboard. */
export const RESERVED_PROJECT_SLUGS: ReadonlySet<string> = new Set([
  "new",
  "create",
  "settings",
  "api",
  "apps",
  "projects",
  "admin",
  "dashboard",
  "auth",
  "login",
  "logout",
  "signup",
  "register",
  "account",
  "docs",
  "help",
  "support",
  "static",
  "assets",
  "public",
  "internal",
  "system",
]);

/** App slugs that would shadow sub-pages of an app in the dashboard. */
export const RESERVED_APP_SLUGS: ReadonlySet<string> = new Set([
  "new",
  "create",
  "settings",
  "api-keys",
  "endpoints",
  "environments",
  "analytics",
  "consumers",
  "logs",
  "requests",
  "data",
  "admin",
]);

/** Lower-case ASCII letters/digits joined by single hyphens; `fallback` when nothing is left. */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, "");
  return slug === "" ? fallback : slug;
}

export function isValidSlug(slug: string): boolean {
  return VALID_SLUG.test(slug);
}

/**
 * The first free slug among `base`, `base-2`, `base-3`, … skipping reserved ones; the base is
 * shortened so a suffix always fits in 64 characters.
 */
export async function firstFreeSlug(
  base: string,
  reserved: ReadonlySet<string>,
  isTaken: (candidate: string) => Promise<boolean>,
): Promise<string> {
  for (let n = 1; n < 10_000; n++) {
    const suffix = n === 1 ? "" : `-${n}`;
    const candidate = `${base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!reserved.has(candidate) && !(await isTaken(candidate))) return candidate;
  }
  throw new Error(`no free slug for ${base}`);
}
