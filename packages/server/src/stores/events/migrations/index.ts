// The events schema's released migrations, in version order.
import type { EventsMigration } from "./runner.js";

export { type EventsMigration, type EventsMigrationContext, EventsMigrationError } from "./runner.js";

/**
 * Empty for now: a later issue adds the `api_requests` and `api_logs` tables here.
 * Append only; a released entry is never edited or renumbered.
 */
export const eventsMigrations: readonly EventsMigration[] = [];
