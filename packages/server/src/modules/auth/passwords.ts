// Password hashing (argon2id, off the event loop in @node-rs/argon2's thread pool) and the
// password policy. Verification always costs one argon2 run, even for unknown accounts.
import { hash, verify } from "@node-rs/argon2";
import type { FieldError } from "@sightline/contracts";

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): ~25-80 ms here per hash. `algorithm: 2`
// is Algorithm.Argon2id, a const enum that verbatimModuleSyntax cannot import.
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

const MIN_PASSWORD_LENGTH = 10;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

let decoyHash: Promise<string> | undefined;

/**
 * Checks `password` against a stored PHC string. With no stored hash (unknown account, or one
 * without a password) it verifies against a decoy so the answer takes the same time.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    decoyHash ??= hashPassword("decoy password that never matches");
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** Every way `password` breaks the policy, as field errors on `pointer`; empty when it passes. */
export function passwordPolicyErrors(password: string, email: string, pointer: string): FieldError[] {
  const problems: string[] = [];
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    problems.push(`must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  }
  if (/^\d+$/.test(password)) problems.push("must not consist of digits only");
  const lowered = password.trim().toLowerCase();
  const address = email.toLowerCase();
  const localPart = address.split("@")[0] ?? address;
  if (lowered === address || lowered === localPart) problems.push("must not be your e-mail address");
  return problems.map((message) => ({ pointer, message }));
}
