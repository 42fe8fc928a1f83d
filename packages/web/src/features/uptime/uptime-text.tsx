// How a check's state and uptime read on the list and the check page.
import type { UptimePercentages, UptimeState } from "@sightline/contracts";
import { Badge, type Tone } from "../../components/ui/Feedback";

const STATE: Record<UptimeState, { label: string; tone: Tone | undefined }> = {
  up: { label: "Up", tone: "success" },
  down: { label: "Down", tone: "danger" },
  unknown: { label: "Pending", tone: undefined },
};

export function StateBadge({ state, enabled }: { state: UptimeState; enabled: boolean }) {
  if (!enabled) return <Badge>Paused</Badge>;
  const { label, tone } = STATE[state];
  return <Badge tone={tone}>{label}</Badge>;
}

/** `99.93 %`, or an em dash without results. */
export function percent(value: number | null): string {
  return value === null ? "—" : `${value.toLocaleString("en-US", { maximumFractionDigits: 3 })} %`;
}

export const UPTIME_WINDOWS: ReadonlyArray<{ key: keyof UptimePercentages; label: string }> = [
  { key: "last_24h", label: "24 hours" },
  { key: "last_7d", label: "7 days" },
  { key: "last_30d", label: "30 days" },
];
