// Validators for URL search params: every view's state lives in the URL, typed, and anything
// malformed is dropped rather than trusted.
export function optionalString(value: unknown, maxLength = 2048): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= maxLength ? value : undefined;
}

/** A whole number ≥ 1 from a search param (`?page=2`), or undefined. */
export function positiveInt(value: unknown): number | undefined {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isInteger(number) && number >= 1 && number <= 1_000_000 ? number : undefined;
}

/** A same-origin path to return to after signing in; anything else (other origins) is dropped. */
export function safeNext(value: unknown): string | undefined {
  const next = optionalString(value);
  if (next === undefined || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\"))
    return undefined;
  return next.startsWith("/auth/") ? undefined : next;
}

export const SIGN_IN_REASONS = ["ended", "signed-out", "deleted"] as const;
export type SignInReason = (typeof SIGN_IN_REASONS)[number];

export function signInReason(value: unknown): SignInReason | undefined {
  return SIGN_IN_REASONS.find((reason) => reason === value);
}

/** The same object without its undefined keys, so links and cache keys carry only what is set. */
export function compact<T extends object>(value: T): T {
  const out = { ...value };
  for (const key in out) if (out[key] === undefined) delete out[key];
  return out;
}
