// Says so when a records window starts before the oldest record the project keeps, instead of
// letting an empty or short page look like missing traffic (docs/adr/0023).
import type { RawRetention } from "@sightline/contracts";
import { Link } from "@tanstack/react-router";
import { Notice } from "../../components/ui/Feedback";

export function RetentionNotice({
  project,
  retention,
  what,
}: {
  project: string;
  retention: RawRetention | undefined;
  what: "requests" | "logs";
}) {
  if (retention === undefined || !retention.beyond) return null;
  const days = retention.days === 1 ? "1 day" : `${retention.days} days`;
  return (
    <Notice
      role="status"
      title={`Raw ${what} are kept ${days}`}
      meta={
        <>
          Set in{" "}
          <Link to="/projects/$project/settings" params={{ project }}>
            project settings
          </Link>
          .
        </>
      }
    >
      This window starts earlier, so only the last {days} can be listed. The overview and the errors breakdown
      still cover older hours from hourly rollups.
    </Notice>
  );
}
