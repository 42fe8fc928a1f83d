// The process logger: JSON lines (pino) at the configured level. Secrets never reach it:
// credential headers are redacted should a serializer ever include them.
import { type Logger, pino } from "pino";
import type { LogLevel } from "./config/index.js";

export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    base: { service: "sightline" },
    redact: {
      paths: ["req.headers.authorization", 'req.headers["x-api-key"]', "req.headers.cookie"],
      censor: "[redacted]",
    },
  });
}
