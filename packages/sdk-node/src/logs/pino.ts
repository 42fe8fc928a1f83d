// pino: a destination stream that sends each log line to Sightline, linked to the request it
// was logged for. pino writes to its destination synchronously in the logging call, so the
// request scope is still there. (A pino *transport* runs in a worker thread that cannot see the
// request scope; tee with pino.multistream instead.)
import type { LogLevel, Sightline } from "../client.js";
import { enableRequestScopes } from "../context.js";

/** pino's numeric levels to Sightline's. */
function levelOf(level: unknown): LogLevel {
  const n = typeof level === "number" ? level : 30;
  if (n >= 60) return "CRITICAL";
  if (n >= 50) return "ERROR";
  if (n >= 40) return "WARNING";
  if (n >= 30) return "INFO";
  return "DEBUG";
}

/** Fields pino adds to every line, not worth sending again. */
const OWN_FIELDS = new Set(["level", "time", "msg", "pid", "hostname", "v", "name"]);

export interface PinoStreamOptions {
  /** Logger name when the line has no `name`. Default: "pino". */
  loggerName?: string;
}

/**
 * A pino destination stream. Use it with `pino.multistream` to keep your usual output.
 *
 * @example
 * const logger = pino({}, pino.multistream([{ stream: process.stdout }, { stream: sightlinePinoStream(sightline) }]));
 * app.get("/orders/:id", (req, res) => { logger.info({ order: req.params.id }, "order read"); ... });
 */
export function sightlinePinoStream(
  sightline: Sightline,
  options: PinoStreamOptions = {},
): { write(line: string): void } {
  enableRequestScopes();
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        sightline.log("INFO", line.trimEnd(), undefined, options.loggerName ?? "pino");
        return;
      }
      const fields: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(entry)) if (!OWN_FIELDS.has(key)) fields[key] = value;
      const message = typeof entry.msg === "string" ? entry.msg : messageOfError(entry.err);
      const name = typeof entry.name === "string" ? entry.name : (options.loggerName ?? "pino");
      sightline.log(levelOf(entry.level), message, fields, name);
    },
  };
}

function messageOfError(err: unknown): string {
  if (err !== null && typeof err === "object" && typeof (err as { message?: unknown }).message === "string") {
    return (err as { message: string }).message;
  }
  return "";
}
