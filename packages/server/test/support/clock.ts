// A clock tests move by hand: expiry windows, rate-limit windows and token lifetimes without
// sleeping. It starts at the real time so JWT `iat` and stored timestamps look ordinary.
import type { Clock } from "../../src/clock.js";

export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(start: Date = new Date()): ManualClock {
  let nowMs = start.getTime();
  return {
    now: () => new Date(nowMs),
    advance(ms) {
      nowMs += ms;
    },
  };
}
