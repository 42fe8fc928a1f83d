// winston: a transport (an object-mode Writable, so no dependency on winston-transport) that
// sends each log entry to Sightline, linked to the request it was logged for.
import { Writable } from "node:stream";
import type { LogLevel, Sightline } from "../client.js";
import { enableRequestScopes } from "../context.js";

const LEVEL = Symbol.for("level");
const MESSAGE = Symbol.for("message");

const LEVELS: Readonly<Record<string, LogLevel>> = {
  emerg: "CRITICAL",
  alert: "CRITICAL",
  crit: "CRITICAL",
  error: "ERROR",
  warning: "WARNING",
  warn: "WARNING",
  notice: "INFO",
  info: "INFO",
  http: "INFO",
  verbose: "DEBUG",
  debug: "DEBUG",
  silly: "DEBUG",
};

type WinstonInfo = Record<string | symbol, unknown>;

export interface WinstonTransportOptions {
  /** Logger name on every line. Default: "winston". */
  loggerName?: string;
}

/** The transport's type: a Writable with winston's `log(info, next)`. */
export type SightlineWinstonTransport = Writable & { log(info: WinstonInfo, next: () => void): void };

/**
 * A winston transport.
 *
 * @example
 * const logger = winston.createLogger({ transports: [new winston.transports.Console(), sightlineWinston(sightline)] });
 */
export function sightlineWinston(
  sightline: Sightline,
  options: WinstonTransportOptions = {},
): SightlineWinstonTransport {
  enableRequestScopes();
  const loggerName = options.loggerName ?? "winston";
  const send = (info: WinstonInfo) => {
    const raw = info[LEVEL] ?? info.level;
    const level = LEVELS[typeof raw === "string" ? raw : "info"] ?? "INFO";
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(info))
      if (key !== "level" && key !== "message") fields[key] = value;
    const message =
      typeof info.message === "string" ? info.message : String(info[MESSAGE] ?? info.message ?? "");
    sightline.log(level, message, fields, loggerName);
  };
  const transport = new Writable({
    objectMode: true,
    write(info: WinstonInfo, _encoding, callback) {
      send(info);
      callback();
    },
  }) as SightlineWinstonTransport;
  transport.log = (info, next) => {
    send(info);
    next();
  };
  return transport;
}
