// The process logger: JSON lines (pino) at the configured level. Secrets never reach it:
// credential headers are redacted should a serializer ever include them, and errors are written
// without what an events-store failure quotes of the rows it was writing (lib/log-errors.ts).
import { type DestinationStream, type Logger, pino } from "pino";
import type { LogLevel } from "./config/index.js";
import { serializeError } from "./lib/log-errors.js";

/** Standard output unless `destination` is given (tests read the lines a run writes). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "sightline" },
    serializers: { err: serializeError },
    redact: {
      paths: ["req.headers.authorization", 'req.headers["x-api-key"]', "req.headers.cookie"],
      censor: "[redacted]",
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
