// One rule, where notifications link to: its state, condition and channels, the live preview,
// its history (each state change with value, window and what each channel was told), and for
// admins and owners mute/unmute, a test notification, edit and delete.
import type { AlertEvent, AlertRule, Channel, TestNotificationResult } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { ArrowRight, BellOff, BellRing, ChevronDown, History, Pencil, Send, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button, buttonClass } from "../../components/ui/Button";
import { ConfirmDialog, useConfirmation } from "../../components/ui/Dialog";
import {
  Badge,
  EmptyState,
  ErrorPanel,
  FailureNotice,
  Notice,
  SkeletonRows,
  type Tone,
} from "../../components/ui/Feedback";
import { MenuContent, MenuItem, MenuRoot, MenuTrigger } from "../../components/ui/Menu";
import { PageQuery } from "../../components/data/QueryView";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { useToast } from "../../components/ui/Toast";
import { formatDateTime, pluralise } from "../../lib/format";
import { useProjectAccess } from "../../lib/access";
import { useTimeZone } from "../../lib/use-time-zone";
import { alertKeys, alertsApi, channelsQuery, EVENTS_PAGE_SIZE, eventsQuery, ruleQuery } from "./api";
import text from "../../components/data/Text.module.css";
import styles from "./Alerts.module.css";
import { BandPanel } from "./BandPanel";
import { PreviewPanel } from "./PreviewPanel";
import {
  COMPARATOR_SYMBOLS,
  conditionText,
  formatMetricValue,
  formatWindow,
  isMuted,
  metricName,
  scopeText,
} from "./rule-text";
import { StateBadges } from "./StateBadges";

const route = getRouteApi("/app/projects/$project/alerts/$alertId");

const MUTE_CHOICES = [
  { label: "1 hour", hours: 1 },
  { label: "4 hours", hours: 4 },
  { label: "24 hours", hours: 24 },
  { label: "7 days", hours: 24 * 7 },
] as const;

export function RuleDetailPage() {
  const { project, alertId } = route.useParams();
  const rule = useQuery(ruleQuery(project, alertId));
  return (
    <PageQuery query={rule} what="this alert rule" loading="the rule">
      {(data) => <RuleDetail project={project} rule={data} />}
    </PageQuery>
  );
}

function RuleDetail({ project, rule }: { project: string; rule: AlertRule }) {
  const canWrite = useProjectAccess(project).can("alerts:write");
  const zone = useTimeZone();
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const channels = useQuery(channelsQuery(project));
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertKeys.all(project) });

  const mute = useMutation({
    mutationFn: (until: string | null) => alertsApi.updateRule(project, rule.id, { muted_until: until }),
    onSuccess: (saved) => {
      queryClient.setQueryData(alertKeys.rule(project, rule.id), saved);
      toast(
        saved.muted_until === null
          ? "Rule unmuted"
          : `Muted until ${formatDateTime(saved.muted_until, zone)}`,
      );
      void refresh();
    },
  });
  const test = useMutation({ mutationFn: () => alertsApi.testRule(project, rule.id) });
  const remove = useMutation({
    mutationFn: () => alertsApi.deleteRule(project, rule.id),
    onSuccess: () => {
      toast(`Rule “${rule.name}” deleted`);
      queryClient.removeQueries({ queryKey: alertKeys.rule(project, rule.id) });
      void refresh();
      void navigate({ to: "/projects/$project/alerts", params: { project } });
    },
  });
  const confirmRemove = useConfirmation(remove);
  const muted = isMuted(rule);
  const ruleChannels = (channels.data ?? []).filter((channel) => rule.channel_ids.includes(channel.id));

  return (
    <Page>
      <PageHeader
        title={
          <span className={styles.transition}>
            {rule.name} <StateBadges rule={rule} />
          </span>
        }
        description={`${conditionText(rule)} · ${scopeText(rule.scope)}`}
        actions={
          canWrite ? (
            <>
              <Button
                onClick={() => test.mutate()}
                busy={test.isPending}
                disabled={rule.channel_ids.length === 0}
              >
                <Send size={16} aria-hidden="true" />
                Send test
              </Button>
              {muted ? (
                <Button onClick={() => mute.mutate(null)} busy={mute.isPending}>
                  <BellRing size={16} aria-hidden="true" />
                  Unmute
                </Button>
              ) : (
                <MenuRoot>
                  <MenuTrigger asChild>
                    <Button busy={mute.isPending}>
                      <BellOff size={16} aria-hidden="true" />
                      Mute
                      <ChevronDown size={14} aria-hidden="true" />
                    </Button>
                  </MenuTrigger>
                  <MenuContent align="end" label="Mute for">
                    {MUTE_CHOICES.map((choice) => (
                      <MenuItem
                        key={choice.hours}
                        onSelect={() =>
                          mute.mutate(new Date(Date.now() + choice.hours * 3_600_000).toISOString())
                        }
                      >
                        Mute for {choice.label}
                      </MenuItem>
                    ))}
                  </MenuContent>
                </MenuRoot>
              )}
              <Link
                className={buttonClass()}
                to="/projects/$project/alerts/$alertId/edit"
                params={{ project, alertId: rule.id }}
              >
                <Pencil size={16} aria-hidden="true" />
                Edit
              </Link>
              <Button variant="dangerOutline" onClick={confirmRemove.show}>
                <Trash2 size={16} aria-hidden="true" />
                Delete
              </Button>
            </>
          ) : undefined
        }
      />
      <FailureNotice error={mute.error} />
      {muted && rule.muted_until !== null ? (
        <Notice tone="info" role="status" title={`Muted until ${formatDateTime(rule.muted_until, zone)}`}>
          The rule is still evaluated and its history kept, but nobody is notified.
        </Notice>
      ) : null}
      {test.data ? <TestResults result={test.data} /> : null}
      <FailureNotice error={test.error} />
      <Card title="Condition">
        <dl className={styles.facts}>
          <div>
            <dt>Metric</dt>
            <dd>{metricName(rule)}</dd>
          </div>
          <div>
            <dt>Fires when</dt>
            <dd>
              {rule.kind === "silence"
                ? `no heartbeat for ${formatWindow(rule.window_seconds)}`
                : rule.comparator === null || rule.threshold === null
                  ? `${rule.direction === "up" ? "above" : rule.direction === "down" ? "below" : "outside"} the expected band (${rule.sensitivity ?? "medium"} sensitivity)`
                  : `${COMPARATOR_SYMBOLS[rule.comparator]} ${formatMetricValue(rule.metric, rule.threshold)}`}
            </dd>
          </div>
          <div>
            <dt>Window</dt>
            <dd>{formatWindow(rule.window_seconds)}</dd>
          </div>
          {rule.metric !== "request_count" && rule.kind !== "silence" ? (
            <div>
              <dt>Minimum requests</dt>
              <dd>{rule.min_requests.toLocaleString("en-US")}</dd>
            </div>
          ) : null}
          <div>
            <dt>Evaluations in a row</dt>
            <dd>{rule.for_evaluations}</dd>
          </div>
          <div>
            <dt>Last value</dt>
            <dd>{formatMetricValue(rule.metric, rule.last_value)}</dd>
          </div>
          <div>
            <dt>In this state since</dt>
            <dd>{formatDateTime(rule.state_since, zone)}</dd>
          </div>
          <div>
            <dt>Channels</dt>
            <dd>
              {ruleChannels.length === 0
                ? "None"
                : ruleChannels.map((channel: Channel) => channel.name).join(", ")}
            </dd>
          </div>
        </dl>
      </Card>
      {rule.kind === "anomaly" ? (
        <Card
          title="Last 24 hours"
          description="The metric measured over the rule's window, against the band it was compared with."
        >
          <BandPanel project={project} rule={rule} />
        </Card>
      ) : rule.kind === "threshold" ? (
        <Card
          title="Last 24 hours"
          description="The metric measured over the rule's window, against its threshold."
        >
          <PreviewPanel
            project={project}
            rule={{
              metric: rule.metric,
              error_status_from: rule.error_status_from ?? 500,
              status: rule.status ?? "",
              comparator: rule.comparator ?? "gt",
              threshold: rule.threshold ?? 0,
              window_seconds: rule.window_seconds,
              min_requests: rule.min_requests,
            }}
            scope={{
              app: rule.scope.app?.slug ?? "",
              environment: rule.scope.environment ?? "",
              method: rule.scope.endpoint?.method ?? "",
              route: rule.scope.endpoint?.route ?? "",
            }}
          />
        </Card>
      ) : null}
      <HistoryCard project={project} rule={rule} zone={zone} />
      <ConfirmDialog
        {...confirmRemove.dialog}
        title={`Delete “${rule.name}”?`}
        consequences={["Its history goes with it.", "Notifications not yet sent are dropped."]}
        confirmLabel="Delete rule"
      />
    </Page>
  );
}

function TestResults({ result }: { result: TestNotificationResult }) {
  const failed = result.results.filter((entry) => !entry.ok);
  return (
    <Notice
      tone={failed.length === 0 ? "success" : "danger"}
      role="status"
      title={failed.length === 0 ? "Test notification delivered" : "Some channels did not take the test"}
    >
      <ul className={styles.outcomes} aria-label="Test results">
        {result.results.map((entry) => (
          <li key={entry.channel_id}>
            {entry.channel_name}: {entry.ok ? "delivered" : `failed (${entry.error ?? "no reason given"})`}
          </li>
        ))}
      </ul>
    </Notice>
  );
}

/** "05:37:58" in the person's zone: a window's ends (its day is in the When column). */
function timeOf(iso: string, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hour12: false,
    timeZone,
  }).format(new Date(iso));
}

const STATE_TONES: Record<AlertEvent["to_state"], Tone> = {
  ok: "success",
  pending: "warning",
  firing: "danger",
};
const STATE_NAMES: Record<AlertEvent["to_state"], string> = {
  ok: "OK",
  pending: "Pending",
  firing: "Firing",
};

function HistoryCard({
  project,
  rule,
  zone,
}: {
  project: string;
  rule: AlertRule;
  zone: string | undefined;
}) {
  const [page, setPage] = useState(1);
  const events = useQuery(eventsQuery(project, rule.id, page));
  const pages = events.data ? Math.max(1, Math.ceil(events.data.total_count / EVENTS_PAGE_SIZE)) : 1;
  return (
    <Card title="History" description="Every change of state, newest first, and what each channel was told.">
      {events.isPending ? (
        <SkeletonRows rows={3} label="Loading the history" />
      ) : events.isError ? (
        <ErrorPanel what="the history" error={events.error} onRetry={() => void events.refetch()} />
      ) : events.data.items.length === 0 ? (
        <EmptyState icon={History} title="No changes yet">
          The rule has stayed OK since it was created or last changed.
        </EmptyState>
      ) : (
        <>
          <div className={table.wrap}>
            <table className={table.table} aria-label="History">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Change</th>
                  <th scope="col" className={table.right}>
                    Value
                  </th>
                  <th scope="col" className={table.right}>
                    Requests
                  </th>
                  <th scope="col">Window</th>
                  <th scope="col">Notifications</th>
                </tr>
              </thead>
              <tbody>
                {events.data.items.map((event) => (
                  <tr key={event.id}>
                    <td className={text.numeric}>{formatDateTime(event.created_at, zone)}</td>
                    <td>
                      <span className={styles.transition}>
                        <Badge tone={STATE_TONES[event.from_state]}>{STATE_NAMES[event.from_state]}</Badge>
                        <ArrowRight size={14} aria-label="to" />
                        <Badge tone={STATE_TONES[event.to_state]}>{STATE_NAMES[event.to_state]}</Badge>
                      </span>
                      {event.reason === "rule_changed" ? (
                        <span className={text.sub}>Rule changed</span>
                      ) : null}
                    </td>
                    <td className={[table.right, text.numeric].join(" ")}>
                      {formatMetricValue(rule.metric, event.value)}
                      <span className={text.sub}>
                        {COMPARATOR_SYMBOLS[event.comparator]}{" "}
                        {formatMetricValue(rule.metric, event.threshold)}
                      </span>
                    </td>
                    <td className={[table.right, text.numeric].join(" ")}>
                      {event.request_count.toLocaleString("en-US")}
                    </td>
                    <td className={text.numeric}>
                      {timeOf(event.window_start, zone)}–{timeOf(event.window_end, zone)}
                    </td>
                    <td>
                      {event.muted ? (
                        <span className={text.sub}>Muted: nobody notified</span>
                      ) : event.notifications.length === 0 ? (
                        <span className={text.sub}>None</span>
                      ) : (
                        <ul className={styles.outcomes}>
                          {event.notifications.map((outcome, index) => (
                            <li key={`${outcome.channel_id ?? "deleted"}-${index}`}>
                              {outcome.channel_name}: {outcome.status}
                              {outcome.attempts > 1 ? ` after ${pluralise(outcome.attempts, "attempt")}` : ""}
                              {outcome.last_error !== null ? ` (${outcome.last_error})` : ""}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 ? (
            <div className={styles.pager}>
              <Button size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Newer
              </Button>
              <span>
                Page {page} of {pages}
              </span>
              <Button size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Older
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}
