// Creating and editing a rule: scope (project, app, environment, endpoint), every metric and
// condition the API takes, the channels to notify, and beside it the live preview of the metric
// against the threshold as the person types.
import type { AlertMetric, AlertRule } from "@sightline/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { ANOMALY_DIRECTIONS, ANOMALY_SENSITIVITIES } from "@sightline/contracts/vocabulary";
import { ChannelChecks, nameAndKind } from "../../components/forms/ChannelChecks";
import { EditorPage, FieldGroup, FieldRow, Sections } from "../../components/forms/Form";
import { ScopeAppEnvironment } from "../../components/forms/ScopeSelects";
import { useDraftForm } from "../../components/forms/useDraftForm";
import { buttonClass } from "../../components/ui/Button";
import { Checkbox, CountField, SelectField, TextField } from "../../components/ui/Field";
import { Notice } from "../../components/ui/Feedback";
import { PageQuery } from "../../components/data/QueryView";
import { Card } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { endpointsQuery } from "../../lib/queries";
import { alertKeys, alertsApi, channelsQuery, ruleQuery } from "./api";
import { PreviewPanel } from "./PreviewPanel";
import {
  ANOMALY_WINDOW_MINUTES,
  bodyFromDraft,
  createBodyFromDraft,
  defaultDirection,
  draftFromRule,
  kindChange,
  kindOf,
  METRIC_DEFAULTS,
  metricChoices,
  NEW_RULE,
  numberOf,
  type RuleDraft,
  windowSecondsOf,
} from "./rule-draft";
import { COMPARATOR_WORDS, METRIC_LABELS, metricUnit } from "./rule-text";
import { NameField } from "../../components/forms/NameFields";

const newRoute = getRouteApi("/app/projects/$project/alerts/new");
const editRoute = getRouteApi("/app/projects/$project/alerts/$alertId/edit");

export function NewRulePage() {
  const { project } = newRoute.useParams();
  return <RuleEditor project={project} rule={null} />;
}

export function EditRulePage() {
  const { project, alertId } = editRoute.useParams();
  const rule = useQuery(ruleQuery(project, alertId));
  return (
    <PageQuery query={rule} what="the rule">
      {(data) => <RuleEditor key={data.id} project={project} rule={data} />}
    </PageQuery>
  );
}

function RuleEditor({ project, rule }: { project: string; rule: AlertRule | null }) {
  const canWrite = useProjectAccess(project).can("alerts:write");
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { draft, set, save, fieldError, bind, bindValue } = useDraftForm<RuleDraft, AlertRule>({
    initial: () => (rule === null ? NEW_RULE : draftFromRule(rule)),
    save: (current) =>
      rule === null
        ? alertsApi.createRule(project, createBodyFromDraft(current))
        : alertsApi.updateRule(project, rule.id, bodyFromDraft(current)),
    onSaved: (saved) => {
      toast(rule === null ? `Rule “${saved.name}” created` : `Rule “${saved.name}” saved`);
      void queryClient.invalidateQueries({ queryKey: alertKeys.all(project) });
      void navigate({ to: "/projects/$project/alerts/$alertId", params: { project, alertId: saved.id } });
    },
  });

  const endpoints = useQuery({ ...endpointsQuery(project, draft.app), enabled: draft.app !== "" });
  const channels = useQuery(channelsQuery(project));
  const unit = metricUnit(draft.metric);
  const endpointValue = draft.method !== "" ? `${draft.method} ${draft.route}` : "";

  return (
    <EditorPage
      title={rule === null ? "New alert rule" : `Edit “${rule.name}”`}
      description="A rule fires when its condition holds for the chosen number of evaluations in a row (one a minute by default), and notifies its channels again when it resolves."
      canWrite={canWrite}
      readOnly="Only admins and owners of the project create and change alert rules."
      save={save}
      submitLabel={rule === null ? "Create rule" : "Save rule"}
      cancel={
        <Link
          className={buttonClass()}
          to={rule === null ? "/projects/$project/alerts" : "/projects/$project/alerts/$alertId"}
          params={rule === null ? { project } : { project, alertId: rule.id }}
        >
          Cancel
        </Link>
      }
    >
      <Card title="Rule">
        <Sections>
          <FieldRow>
            <NameField label="Rule name" placeholder="Checkout failing" {...bindValue("name")} />
          </FieldRow>
          <FieldGroup legend="Scope">
            <FieldRow>
              <ScopeAppEnvironment
                project={project}
                app={draft.app}
                environment={draft.environment}
                onApp={(app) => set({ app, environment: "", method: "", route: "" })}
                onEnvironment={(environment) => set({ environment })}
                fieldError={fieldError}
              />
              <SelectField
                label="Endpoint"
                value={endpointValue}
                disabled={draft.app === "" || draft.kind === "silence"}
                onChange={(event) => {
                  const [method = "", ...route] = event.target.value.split(" ");
                  set({ method, route: route.join(" ") });
                }}
                error={fieldError("/scope/endpoint")}
              >
                <option value="">All endpoints</option>
                {endpointValue !== "" &&
                !(endpoints.data ?? []).some((e) => `${e.method} ${e.path}` === endpointValue) ? (
                  <option value={endpointValue}>{endpointValue}</option>
                ) : null}
                {(endpoints.data ?? []).map((endpoint) => (
                  <option key={endpoint.id} value={`${endpoint.method} ${endpoint.path}`}>
                    {endpoint.method} {endpoint.path}
                  </option>
                ))}
              </SelectField>
            </FieldRow>
          </FieldGroup>
          <FieldGroup legend="Condition">
            <FieldRow>
              <SelectField
                label="Kind"
                value={draft.kind}
                disabled={rule !== null}
                hint={
                  rule !== null
                    ? "A rule keeps its kind."
                    : draft.kind === "anomaly"
                      ? "Fires when the value leaves its usual band for this time of week."
                      : draft.kind === "silence"
                        ? "Fires when the apps in scope send no heartbeat (the SDK sends one a minute)."
                        : undefined
                }
                onChange={(event) => set(kindChange(draft, kindOf(event.target.value)))}
                error={fieldError("/kind")}
              >
                <option value="threshold">Threshold</option>
                <option value="anomaly">Anomaly</option>
                <option value="silence">App silent</option>
              </SelectField>
              <SelectField
                label="Metric"
                value={draft.metric}
                onChange={(event) => {
                  const metric = event.target.value as AlertMetric;
                  set({ metric, ...METRIC_DEFAULTS[metric], direction: defaultDirection(metric) });
                }}
                error={fieldError("/metric")}
              >
                {metricChoices(draft.kind).map((metric) => (
                  <option key={metric} value={metric}>
                    {METRIC_LABELS[metric]}
                  </option>
                ))}
              </SelectField>
              {draft.metric === "error_rate" ? (
                <SelectField
                  label="Counted as errors"
                  value={String(draft.error_status_from)}
                  onChange={(event) =>
                    set({ error_status_from: Number(event.target.value) === 400 ? 400 : 500 })
                  }
                  error={fieldError("/error_status_from")}
                >
                  <option value="500">Status ≥ 500</option>
                  <option value="400">Status ≥ 400</option>
                </SelectField>
              ) : null}
              {draft.metric === "status_count" ? (
                <TextField
                  label="Status code or class"
                  {...bind("status")}
                  placeholder="5xx"
                  maxLength={3}
                  hint="A code like 503 or a class like 4xx."
                />
              ) : null}
              {draft.kind === "anomaly" ? (
                <>
                  <SelectField
                    label="Sensitivity"
                    value={draft.sensitivity}
                    onChange={(event) =>
                      set({
                        sensitivity:
                          ANOMALY_SENSITIVITIES.find((one) => one === event.target.value) ?? "medium",
                      })
                    }
                    hint="High: a narrower band, earlier alerts."
                    error={fieldError("/sensitivity")}
                  >
                    <option value="low">Low</option>
                    <option value="medium">Medium</option>
                    <option value="high">High</option>
                  </SelectField>
                  <SelectField
                    label="Fires when the value is"
                    value={draft.direction}
                    onChange={(event) =>
                      set({
                        direction: ANOMALY_DIRECTIONS.find((one) => one === event.target.value) ?? "both",
                      })
                    }
                    error={fieldError("/direction")}
                  >
                    <option value="up">Above the band</option>
                    <option value="down">Below the band</option>
                    <option value="both">Above or below</option>
                  </SelectField>
                </>
              ) : draft.kind === "threshold" ? (
                <>
                  <SelectField
                    label="Fires when the value is"
                    value={draft.comparator}
                    onChange={(event) => set({ comparator: event.target.value as RuleDraft["comparator"] })}
                    error={fieldError("/comparator")}
                  >
                    {(Object.keys(COMPARATOR_WORDS) as RuleDraft["comparator"][]).map((comparator) => (
                      <option key={comparator} value={comparator}>
                        {COMPARATOR_WORDS[comparator]}
                      </option>
                    ))}
                  </SelectField>
                  <TextField
                    label={unit === "" ? "Threshold" : `Threshold (${unit})`}
                    type="number"
                    inputMode="decimal"
                    min={0}
                    step="any"
                    {...bind("threshold")}
                    hint={
                      draft.metric === "request_count" &&
                      draft.comparator === "lt" &&
                      numberOf(draft.threshold) === 1
                        ? "Below 1: no traffic at all."
                        : undefined
                    }
                  />
                </>
              ) : null}
            </FieldRow>
            <FieldRow>
              {draft.kind === "anomaly" ? (
                <SelectField label="Window" {...bind("window_minutes", "/window_seconds")}>
                  {ANOMALY_WINDOW_MINUTES.map((minutes) => (
                    <option key={minutes} value={String(minutes)}>
                      {minutes === 60 ? "1 hour" : `${minutes} minutes`}
                    </option>
                  ))}
                </SelectField>
              ) : (
                <TextField
                  label={draft.kind === "silence" ? "Silent for (minutes)" : "Window (minutes)"}
                  type="number"
                  min={draft.kind === "silence" ? 2 : 1}
                  max={1440}
                  step={draft.kind === "silence" ? 1 : "any"}
                  {...bind("window_minutes", "/window_seconds")}
                  hint={
                    draft.kind === "silence"
                      ? "Whole minutes, 2 or more, without a heartbeat."
                      : "1 to 1440 (24 h)."
                  }
                />
              )}
              {draft.metric !== "request_count" && draft.kind !== "silence" ? (
                <CountField
                  label="Minimum requests"
                  min={0}
                  hint="Fewer in the window never fire."
                  {...bind("min_requests")}
                />
              ) : null}
              <CountField
                label="Evaluations in a row"
                min={1}
                max={1440}
                hint="1 fires at once; more waits while pending."
                {...bind("for_evaluations")}
              />
            </FieldRow>
          </FieldGroup>
          <FieldGroup legend="Notify">
            <ChannelChecks
              channels={channels.data}
              selected={draft.channel_ids}
              onChange={(channel_ids) => set({ channel_ids })}
              label={nameAndKind}
              none="No channels yet: the rule keeps its history, and you can add channels on the Alerts page."
            />
            <Checkbox
              label="Enabled: evaluate this rule"
              checked={draft.enabled}
              onChange={(event) => set({ enabled: event.target.checked })}
            />
          </FieldGroup>
        </Sections>
      </Card>
      {draft.kind === "threshold" ? (
        <Card
          title="Preview"
          description="The metric over the last 24 hours, measured the way the rule measures it, against the threshold."
        >
          <PreviewPanel
            project={project}
            rule={{
              metric: draft.metric,
              error_status_from: draft.error_status_from,
              status: draft.status.trim().toLowerCase(),
              comparator: draft.comparator,
              threshold: numberOf(draft.threshold),
              window_seconds: windowSecondsOf(draft),
              min_requests: Math.max(0, numberOf(draft.min_requests) || 0),
            }}
            scope={{
              app: draft.app,
              environment: draft.environment,
              method: draft.method,
              route: draft.route,
            }}
          />
        </Card>
      ) : draft.kind === "anomaly" ? (
        <Notice tone="info" role="status">
          An anomaly rule learns its band from the same time of week over the last four weeks; the
          rule&rsquo;s page draws the band and the value once it is saved.
        </Notice>
      ) : null}
    </EditorPage>
  );
}
