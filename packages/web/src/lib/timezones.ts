// The IANA time zones the browser knows, with their current UTC offsets, for the profile's
// time-zone picker ("(UTC+01:00) Europe/Paris"), sorted by offset then name.
export interface ZoneOption {
  readonly zone: string;
  readonly offsetMinutes: number;
  readonly label: string;
}

/** Minutes east of UTC for `zone` at `at`. */
export function offsetMinutes(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const asUtc = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "−" : "+";
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `UTC${sign}${hh}:${mm}`;
}

export function supportedZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  // Some engines leave UTC itself out of the list.
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

export function zoneOptions(zones: readonly string[], at: Date = new Date()): ZoneOption[] {
  return zones
    .map((zone) => {
      const offset = offsetMinutes(zone, at);
      return { zone, offsetMinutes: offset, label: `(${formatOffset(offset)}) ${zone.replaceAll("_", " ")}` };
    })
    .sort((a, b) => a.offsetMinutes - b.offsetMinutes || a.zone.localeCompare(b.zone));
}

/** The browser's own zone, offered as a suggestion. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
