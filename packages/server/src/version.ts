// The running server's version, read once from its package.json (same path from src/ and dist/).
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

export const SERVER_VERSION: string = manifest.version;

/** Version of the HTTP interface described by /api/v1/openapi.json. */
export const API_VERSION = "1.0.0";
