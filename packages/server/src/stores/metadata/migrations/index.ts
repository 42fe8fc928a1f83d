// The one migration chain of the metadata store, run in order on SQLite and PostgreSQL alike.
// Append only: never edit or reorder a migration that has shipped.
import type { Migration } from "kysely";
import * as m0001 from "./0001-rate-limit-counters.js";

export const metadataMigrations: Readonly<Record<string, Migration>> = {
  "0001-rate-limit-counters": m0001,
};
