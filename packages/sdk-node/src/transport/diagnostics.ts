// The SDK's own voice: warnings (each kind said once, so an outage cannot flood the app's
// logs) and, with `debug`, a line per batch. Uses the console methods as they were at load
// time, so console capture never records the SDK's own lines.

/** Where the SDK writes its warnings and debug lines; `console` unless given. */
export interface SightlineLogger {
  warn(message: string): void;
  debug?(message: string): void;
}

// eslint-disable-next-line no-console -- the default logger of an SDK that has no other voice
const original = { warn: console.warn.bind(console), debug: console.debug.bind(console) };
export const consoleLogger: SightlineLogger = original;

export class Diagnostics {
  private readonly said = new Set<string>();

  constructor(
    private readonly logger: SightlineLogger,
    readonly debugEnabled: boolean,
  ) {}

  warn(message: string): void {
    try {
      this.logger.warn(`[sightline] ${message}`);
    } catch {
      // A broken logger must not break the app.
    }
  }

  /** Warns the first time `key` comes up, then stays quiet about it. */
  warnOnce(key: string, message: string): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    this.warn(message);
  }

  debug(message: () => string): void {
    if (!this.debugEnabled) return;
    try {
      (this.logger.debug ?? this.logger.warn).call(this.logger, `[sightline] ${message()}`);
    } catch {
      // As above.
    }
  }
}
