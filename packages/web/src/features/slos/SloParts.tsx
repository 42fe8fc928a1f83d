// Small shared parts of the SLO pages: the state badge and the status cells of a row.
import type { SloState } from "@sightline/contracts";
import { Badge } from "../../components/ui/Feedback";
import { STATE_LABELS } from "./slo-text";

export function SloStateBadge({ state }: { state: SloState }) {
  const { label, tone } = STATE_LABELS[state];
  return <Badge tone={tone}>{label}</Badge>;
}

/** Meeting the objective or not, as a badge; nothing known without requests. */
export function MeetingBadge({ meeting }: { meeting: boolean | null }) {
  if (meeting === null) return <Badge tone="info">No requests</Badge>;
  return meeting ? <Badge tone="success">Meeting</Badge> : <Badge tone="danger">Below target</Badge>;
}
