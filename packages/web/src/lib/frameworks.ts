// The frameworks an app can declare, with their display names. The values are the server's
// own list (@sightline/contracts FRAMEWORKS): the type check below fails the build if the
// server adds or drops one and this list does not follow.
import type { Framework } from "@sightline/contracts";

export const FRAMEWORK_OPTIONS = [
  { value: "express", label: "Express" },
  { value: "fastify", label: "Fastify" },
  { value: "hono", label: "Hono" },
  { value: "koa", label: "Koa" },
  { value: "nestjs", label: "NestJS" },
  { value: "nextjs", label: "Next.js" },
  { value: "django", label: "Django" },
  { value: "fastapi", label: "FastAPI" },
  { value: "flask", label: "Flask" },
  { value: "starlette", label: "Starlette" },
  { value: "rails", label: "Rails" },
  { value: "laravel", label: "Laravel" },
  { value: "spring", label: "Spring" },
  { value: "go", label: "Go" },
  { value: "other", label: "Other" },
] as const satisfies ReadonlyArray<{ value: Framework; label: string }>;

type Listed = (typeof FRAMEWORK_OPTIONS)[number]["value"];
/** Compiles only while every server framework is listed. */
export const EVERY_FRAMEWORK_LISTED: [Exclude<Framework, Listed>] extends [never] ? true : never = true;

export function frameworkLabel(value: string): string {
  return FRAMEWORK_OPTIONS.find((option) => option.value === value)?.label ?? value;
}
