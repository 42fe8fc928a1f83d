// How errors appear in log lines: pino's standard shape (type, message and stack with their
// causes, own fields), except that an events-store error ends the chain and loses its `sql`. The
// engine's message (its cause) and the statement can quote the rows being written, which are
// tenants' data and never go to the logs; the store error's own message, kind, code, engine
// error name and failed row are ours and stay.
import { pino } from "pino";
import { EventsStoreError } from "../stores/events/executor.js";

/** Deeper cause chains are cut: a cycle or a pathological chain must not stall logging. */
const MAX_CHAIN = 16;

export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const chain: Error[] = [];
  for (let link: unknown = error; link instanceof Error && chain.length < MAX_CHAIN; link = link.cause) {
    chain.push(link);
    if (link instanceof EventsStoreError) break;
  }
  if (!(chain.at(-1) instanceof EventsStoreError)) return pino.stdSerializers.err(error);
  return {
    type: error.constructor.name,
    ...withoutErrors(error, ["cause", "sql"]),
    message: chain.map((link) => link.message).join(": "),
    stack: chain.map((link) => link.stack ?? `${link.name}: ${link.message}`).join("\ncaused by: "),
  };
}

/** Own fields, minus `skip` and any error they hold one level down (AppError keeps its cause in
 *  `options`): an error's fields are written, the errors they point to are not. */
function withoutErrors(value: object, skip: readonly string[] = []): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (skip.includes(key) || field instanceof Error) continue;
    const plain =
      typeof field === "object" && field !== null && Object.getPrototypeOf(field) === Object.prototype;
    kept[key] = plain ? withoutErrors(field as object, ["cause"]) : field;
  }
  return kept;
}
