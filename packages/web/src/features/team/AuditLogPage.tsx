// A project's audit log: who did what and when, newest first, one page at a time (the page is
// in the URL). Admins and owners only; others are told so rather than shown an error.
import type { AuditAction, AuditEvent } from "@sightline/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { ScrollText } from "lucide-react";
import { buttonClass } from "../../components/ui/Button";
import { EmptyState, ErrorPanel, Notice, SkeletonRows } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { useProjectAccess } from "../../lib/access";
import { AUDIT_PAGE_SIZE, auditLogQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import styles from "./Team.module.css";

const route = getRouteApi("/app/projects/$project/settings/audit-log");

/** Every action the server records, in words (the type fails the build when one is missing). */
const ACTIONS: Record<AuditAction, string> = {
  "project.created": "created the project",
  "project.updated": "changed the project's settings",
  "project.ownership_transferred": "transferred ownership",
  "project.retention_changed": "changed the project's retention",
  "app.created": "created app",
  "app.deleted": "deleted app",
  "environment.created": "created environment",
  "environment.deleted": "deleted environment",
  "api_key.created": "created API key",
  "api_key.revoked": "revoked API key",
  "member.invited": "invited",
  "member.joined": "joined",
  "member.role_changed": "changed the role of",
  "member.removed": "removed",
  "member.left": "left",
  "invitation.revoked": "revoked the invitation of",
  "invitation.declined": "declined the invitation of",
  "alert_rule.created": "created alert rule",
  "alert_rule.updated": "changed alert rule",
  "alert_rule.deleted": "deleted alert rule",
  "notification_channel.created": "created notification channel",
  "notification_channel.updated": "changed notification channel",
  "notification_channel.deleted": "deleted notification channel",
  "slo.created": "created SLO",
  "slo.updated": "changed SLO",
  "slo.deleted": "deleted SLO",
  "token.used": "made a change with access token",
};

/** The event's details as short text: `role: viewer → admin`, `fields: name`. */
export function describeDetails(details: Record<string, unknown>): string {
  const text = (value: unknown): string =>
    Array.isArray(value)
      ? value.map(text).join(", ")
      : typeof value === "object" && value !== null
        ? JSON.stringify(value)
        : String(value);
  const parts: string[] = [];
  // Ids of other records (the invitation, the inviter) mean nothing to a reader.
  const isId = (value: unknown) =>
    typeof value === "string" &&
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
  if ("from" in details && "to" in details) parts.push(`${text(details.from)} → ${text(details.to)}`);
  for (const [name, value] of Object.entries(details)) {
    if (name === "from" || name === "to" || isId(value)) continue;
    parts.push(`${name.replaceAll("_", " ")}: ${text(value)}`);
  }
  return parts.join("; ");
}

function actorOf(event: AuditEvent): string {
  if (event.actor === null) return "Sightline";
  return event.actor.name || event.actor.email || "Deleted user";
}

export function AuditLogPage() {
  const { project } = route.useParams();
  const { page } = route.useSearch();
  const access = useProjectAccess(project);
  const timeZone = useTimeZone();
  const allowed = access.can("audit:read");
  const log = useQuery({
    ...auditLogQuery(project, page),
    enabled: allowed,
    placeholderData: keepPreviousData,
  });
  if (access.loaded && !allowed) {
    return (
      <Card title="Audit log">
        <Notice tone="info" role="status">
          Only admins and owners can read this project's audit log.
        </Notice>
      </Card>
    );
  }
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total_count / AUDIT_PAGE_SIZE)) : 1;
  return (
    <Card
      title="Audit log"
      description="Who changed what, newest first: keys, members, apps, environments, settings and alerts."
      footer={
        log.data && log.data.total_count > 0 ? (
          <nav className={styles.pager} aria-label="Audit log pages">
            <span>
              Page {page} of {pages} · {log.data.total_count} events
            </span>
            <span className={styles.buttons}>
              {page > 1 ? (
                <Link
                  to="/projects/$project/settings/audit-log"
                  params={{ project }}
                  search={{ page: page - 1 }}
                  className={buttonClass({ size: "sm" })}
                >
                  Newer
                </Link>
              ) : null}
              {page < pages ? (
                <Link
                  to="/projects/$project/settings/audit-log"
                  params={{ project }}
                  search={{ page: page + 1 }}
                  className={buttonClass({ size: "sm" })}
                >
                  Older
                </Link>
              ) : null}
            </span>
          </nav>
        ) : undefined
      }
    >
      {!access.loaded || log.isPending ? (
        <SkeletonRows rows={4} label="Loading the audit log" />
      ) : log.isError ? (
        <ErrorPanel what="the audit log" error={log.error} onRetry={() => void log.refetch()} />
      ) : log.data.items.length === 0 ? (
        <EmptyState icon={ScrollText} title="Nothing recorded yet">
          Changes to keys, members, apps and settings appear here.
        </EmptyState>
      ) : (
        <DataTable
          label="Audit log"
          rows={log.data.items}
          rowKey={(event) => event.id}
          rowData={(event) => ({ "data-action": event.action })}
          exportName={`${project}-audit-log`}
          columns={[
            { header: "When", cell: (event) => <WhenCell iso={event.created_at} zone={timeZone} /> },
            {
              header: "Who",
              className: [table.strong, styles.nowrap].join(" "),
              cell: (event) => actorOf(event),
            },
            {
              header: "What",
              cell: (event) => (
                <>
                  {ACTIONS[event.action] ?? event.action}{" "}
                  {/* "grace joined", not "grace joined grace@…": the actor is the target. */}
                  {event.target.label && event.actor?.user_id !== event.target.id ? (
                    <strong>{event.target.label}</strong>
                  ) : null}
                </>
              ),
            },
            { header: "Details", className: styles.details, cell: (event) => describeDetails(event.details) },
          ]}
        />
      )}
    </Card>
  );
}
