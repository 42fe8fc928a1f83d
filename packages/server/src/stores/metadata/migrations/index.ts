// The one migration chain of the metadata store, run in order on SQLite and PostgreSQL alike.
// Append only: never edit or reorder a migration that has shipped.
import type { Migration } from "kysely";
import * as m0001 from "./0001-rate-limit-counters.js";
import * as m0002 from "./0002-identity.js";
import * as m0003 from "./0003-resources.js";
import * as m0004 from "./0004-ingest-idempotency.js";
import * as m0006 from "./0006-teams.js";
import * as m0008 from "./0008-alerts.js";
import * as m0009 from "./0009-personal-access-tokens.js";
import * as m0010 from "./0010-api-contracts.js";
import * as m0011 from "./0011-slos.js";
import * as m0012 from "./0012-anomaly-rules.js";
import * as m0013 from "./0013-app-heartbeats.js";
import * as m0014 from "./0014-saved-views.js";
import * as m0015 from "./0015-uptime-checks.js";
import * as m0016 from "./0016-project-retention.js";
import * as m0017 from "./0017-project-rollup-retention.js";

export const metadataMigrations: Readonly<Record<string, Migration>> = {
  "0001-rate-limit-counters": m0001,
  "0002-identity": m0002,
  "0003-resources": m0003,
  "0004-ingest-idempotency": m0004,
  "0006-teams": m0006,
  "0008-alerts": m0008,
  "0009-personal-access-tokens": m0009,
  "0010-api-contracts": m0010,
  "0011-slos": m0011,
  "0012-anomaly-rules": m0012,
  "0013-app-heartbeats": m0013,
  "0014-saved-views": m0014,
  "0015-uptime-checks": m0015,
  "0016-project-retention": m0016,
  "0017-project-rollup-retention": m0017,
};
