// Small shared parts of the SLO pages: the link to an SLO, the state badge and the status cells of a row.
import type { Slo, SloState } from "@sightline/contracts";
import { Link } from "@tanstack/react-router";
import { Badge } from "../../components/ui/Feedback";
import text from "../../components/data/Text.module.css";
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

/** An SLO's name, opening its page. */
export function SloLink({ project, slo }: { project: string; slo: Pick<Slo, "id" | "name"> }) {
  return (
    <Link className={text.name} to="/projects/$project/slos/$sloId" params={{ project, sloId: slo.id }}>
      {slo.name}
    </Link>
  );
}
