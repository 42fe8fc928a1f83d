// Time as a dependency: services ask the clock, so tests can move it instead of sleeping.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The one timestamp text format of the metadata store: fixed-width ISO 8601 UTC with ms. */
export function toIsoTimestamp(date: Date): string {
  return date.toISOString();
}
