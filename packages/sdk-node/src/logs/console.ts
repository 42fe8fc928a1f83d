// Opt-in console capture: console.log/info/warn/error/debug/trace still print as before, and
// each line is also sent to Sightline, linked to the request it ran for.
import { format } from "node:util";
import type { LogLevel, Sightline } from "../client.js";
import { enableRequestScopes } from "../context.js";

const METHODS: Readonly<Record<string, LogLevel>> = {
  log: "INFO",
  info: "INFO",
  warn: "WARNING",
  error: "ERROR",
  debug: "DEBUG",
  trace: "DEBUG",
};

type ConsoleMethod = (...args: unknown[]) => void;

const clients = new Set<Sightline>();
let originals: Map<string, ConsoleMethod> | undefined;
let sending = false;

/**
 * Sends every `console.*` line to Sightline as well (the `captureConsole` option does this for
 * you). Returns a function that stops the capture for this client.
 *
 * @example
 * const stop = captureConsole(sightline);
 * console.warn("cache miss for %s", key); // printed, and sent as a WARNING log
 */
export function captureConsole(sightline: Sightline): () => void {
  enableRequestScopes();
  clients.add(sightline);
  if (originals === undefined) patch();
  return () => {
    clients.delete(sightline);
    if (clients.size === 0) restore();
  };
}

function patch(): void {
  const saved = new Map<string, ConsoleMethod>();
  const target = console as unknown as Record<string, ConsoleMethod>;
  for (const [name, level] of Object.entries(METHODS)) {
    const original = target[name];
    if (typeof original !== "function") continue;
    saved.set(name, original);
    target[name] = function (this: unknown, ...args: unknown[]) {
      original.apply(this, args);
      // A line the SDK itself prints while sending must not be sent again.
      if (sending) return;
      sending = true;
      try {
        const message = format(...args);
        for (const client of clients) client.log(level, message, undefined, "console");
      } finally {
        sending = false;
      }
    };
  }
  originals = saved;
}

function restore(): void {
  const target = console as unknown as Record<string, ConsoleMethod>;
  for (const [name, original] of originals ?? []) target[name] = original;
  originals = undefined;
}
