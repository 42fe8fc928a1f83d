// The time zones Sightline accepts: IANA names that both Intl (our date arithmetic, the
// dashboard) and the events engine (which aligns timeseries buckets) know. Each side has zones
// the other lacks (Intl takes `SystemV/AST4`, which the engine cannot load), and a zone only one
// side knows fails every timeseries that uses it. The engine's list is read once, on first use.

/** The accepted zones: `canonical` gives a name's canonical spelling, or null if not accepted. */
export interface TimeZones {
  canonical(name: string): string | null;
}

export interface TimeZoneCatalogue {
  /** The accepted zones; the engine's list is loaded on the first call (and again after a
   *  failed load, so an outage at start-up is not remembered). */
  load(): Promise<TimeZones>;
}

export function createTimeZoneCatalogue(
  loadEngineZones: () => Promise<readonly string[]>,
): TimeZoneCatalogue {
  let loading: Promise<TimeZones> | undefined;
  return {
    load() {
      loading ??= loadEngineZones().then(
        (names) => {
          const engine = new Set(names);
          return {
            canonical(name) {
              const zone = intlCanonicalZone(name);
              return zone !== null && engine.has(zone) ? zone : null;
            },
          };
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}

/**
 * Intl's canonical spelling of an IANA zone name ("europe/paris" -> "Europe/Paris"), or null.
 * Offsets such as "+02:00" are refused: a zone name follows daylight saving, an offset does not.
 */
export function intlCanonicalZone(name: string): string | null {
  const trimmed = name.trim();
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(trimmed)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
