// The JWT signing secret: taken from config when set, otherwise generated once into DATA_DIR
// (mode 0600) so that a fresh install never signs tokens with a default secret.
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export function loadOrCreateSecret(configured: string | undefined, path: string): string {
  if (configured !== undefined) return configured;
  mkdirSync(dirname(path), { recursive: true });
  try {
    // "wx" fails when the file exists, so two processes starting together agree on one secret.
    writeFileSync(path, `${randomBytes(48).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  chmodSync(path, 0o600);
  const secret = readFileSync(path, "utf8").trim();
  if (secret.length < 32)
    throw new Error(`${path} holds a secret shorter than 32 characters; delete it to regenerate`);
  return secret;
}
