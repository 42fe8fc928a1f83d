// The small button-links from a record to its trace, or to the requests or logs that carry the
// same trace id (over 30 days, so an older trace still finds them).
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { buttonClass } from "../ui/Button";

export function TraceLink({
  project,
  traceId,
  to,
  children,
}: {
  project: string;
  traceId: string;
  /** The trace's page, or the Requests or Logs list filtered to it. */
  to: "trace" | "requests" | "logs";
  children: ReactNode;
}) {
  const className = buttonClass({ size: "sm" });
  if (to === "trace")
    return (
      <Link className={className} to="/projects/$project/traces/$traceId" params={{ project, traceId }}>
        {children}
      </Link>
    );
  return (
    <Link
      className={className}
      to={to === "requests" ? "/projects/$project/requests" : "/projects/$project/logs"}
      params={{ project }}
      search={{ trace: traceId, range: "30d" }}
    >
      {children}
    </Link>
  );
}
