// Creating an SLO: scope (app, environment, endpoints, one consumer), the indicator
// (availability or a latency threshold), target and window, the burn-rate alerts and their
// channels; or, with "one per consumer", the same SLO for each of the top N consumers at once.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { SLO_WINDOW_DAYS } from "@sightline/contracts/vocabulary";
import { ChannelChecks } from "../../components/forms/ChannelChecks";
import { Checks, EditorPage, FieldGroup, FieldRow, Sections } from "../../components/forms/Form";
import { ScopeAppEnvironment } from "../../components/forms/ScopeSelects";
import { useDraftForm } from "../../components/forms/useDraftForm";
import { Checkbox, SelectField, TextField, Options } from "../../components/ui/Field";
import { Card } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { endpointsQuery, channelsListQuery } from "./form-queries";
import { sloKeys, slosApi } from "./api";
import { createBodyOf, NEW_SLO, perConsumerBodyOf, type SloDraft } from "./slo-text";
import { NameField } from "../../components/forms/NameFields";

const route = getRouteApi("/app/projects/$project/slos/new");

/** The two burn-rate alerts: the draft's field, and where the server's refusal of it points. */
const BURN_RATES = [
  {
    key: "fastRate",
    label: "Fast burn rate",
    hint: "Over 1 h and 5 min.",
    pointer: "/alerting/fast/burn_rate",
  },
  {
    key: "slowRate",
    label: "Slow burn rate",
    hint: "Over 6 h and 30 min.",
    pointer: "/alerting/slow/burn_rate",
  },
] as const;

export function NewSloPage() {
  const { project } = route.useParams();
  const canWrite = useProjectAccess(project).can("alerts:write");
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { draft, set, save, fieldError, bind, bindValue } = useDraftForm({
    initial: NEW_SLO,
    save: async (current: SloDraft): Promise<{ count: number; first: string | undefined }> => {
      if (current.perConsumer) {
        const made = await slosApi.createPerConsumer(project, perConsumerBodyOf(current));
        return { count: made.length, first: undefined };
      }
      const made = await slosApi.create(project, createBodyOf(current));
      return { count: 1, first: made.id };
    },
    onSaved: ({ count, first }, saved) => {
      void queryClient.invalidateQueries({ queryKey: sloKeys.all(project) });
      if (first !== undefined) {
        toast(`SLO “${saved.name.trim()}” created`);
        void navigate({ to: "/projects/$project/slos/$sloId", params: { project, sloId: first } });
      } else {
        toast(count === 0 ? "No consumers in that scope: no SLO created" : `${count} SLOs created`);
        void navigate({ to: "/projects/$project/slos", params: { project } });
      }
    },
    // The per-consumer body nests the objective under /template.
    fieldMessage: (error, pointer) =>
      error.fieldMessage(pointer) ?? error.fieldMessage(`/template${pointer}`),
  });
  const endpoints = useQuery({ ...endpointsQuery(project, draft.app), enabled: draft.app !== "" });
  const channels = useQuery(channelsListQuery(project));
  const toggleEndpoint = (entry: string, on: boolean) =>
    set({ endpoints: on ? [...draft.endpoints, entry] : draft.endpoints.filter((one) => one !== entry) });

  return (
    <EditorPage
      title="New SLO"
      description="The share of good requests you promise over a rolling window. The error budget is what the rest may fail; burn-rate alerts tell you when it goes too fast."
      canWrite={canWrite}
      readOnly="Only admins and owners of the project create SLOs."
      save={save}
      submitLabel={draft.perConsumer ? "Create one SLO per consumer" : "Create SLO"}
    >
      <Card title="Objective">
        <Sections>
          <FieldRow>
            <NameField label="Name" placeholder="Checkout available" {...bindValue("name")} />
          </FieldRow>
          <FieldGroup legend="Scope">
            <FieldRow>
              <ScopeAppEnvironment
                project={project}
                app={draft.app}
                environment={draft.environment}
                onApp={(app) => set({ app, environment: "", endpoints: [] })}
                onEnvironment={(environment) => set({ environment })}
                fieldError={fieldError}
              />
              {draft.perConsumer ? (
                <TextField
                  label="Top consumers"
                  hint="One SLO each for the consumers with the most requests."
                  inputMode="numeric"
                  {...bind("top")}
                />
              ) : (
                <TextField
                  label="Consumer"
                  optional
                  hint="One consumer's id, exactly."
                  {...bind("consumer", "/scope/consumer")}
                  maxLength={256}
                />
              )}
            </FieldRow>
            <Checkbox
              label="One SLO per consumer: the same objective for each of the busiest consumers"
              checked={draft.perConsumer}
              onChange={(event) => set({ perConsumer: event.target.checked })}
            />
            {draft.app !== "" && (endpoints.data ?? []).length > 0 ? (
              <FieldGroup
                minor
                legend="Endpoints (none ticked: every endpoint of the app; several: measured together)"
              >
                <Checks wrap>
                  {(endpoints.data ?? []).map((endpoint) => {
                    const entry = `${endpoint.method} ${endpoint.path}`;
                    return (
                      <Checkbox
                        key={endpoint.id}
                        label={entry}
                        checked={draft.endpoints.includes(entry)}
                        onChange={(event) => toggleEndpoint(entry, event.target.checked)}
                      />
                    );
                  })}
                </Checks>
              </FieldGroup>
            ) : null}
          </FieldGroup>
          <FieldGroup legend="Indicator and target">
            <FieldRow>
              <SelectField
                label="Good requests"
                value={draft.kind}
                onChange={(event) =>
                  set({ kind: event.target.value === "latency" ? "latency" : "availability" })
                }
              >
                <option value="availability">Availability: not failed</option>
                <option value="latency">Latency: faster than a threshold</option>
              </SelectField>
              {draft.kind === "latency" ? (
                <TextField
                  label="Threshold (ms)"
                  inputMode="decimal"
                  value={draft.thresholdMs}
                  onChange={(event) => set({ thresholdMs: event.target.value })}
                  error={fieldError("/sli/threshold_ms") ?? fieldError("/sli")}
                />
              ) : (
                <TextField
                  label="Also failures"
                  optional
                  hint="Besides 5xx: codes or classes, e.g. 429, 4xx."
                  value={draft.alsoBad}
                  onChange={(event) => set({ alsoBad: event.target.value })}
                  error={fieldError("/sli/also_bad") ?? fieldError("/sli")}
                />
              )}
              <TextField label="Target (%)" inputMode="decimal" {...bind("target")} />
              <SelectField
                label="Window"
                value={String(draft.windowDays)}
                onChange={(event) =>
                  set({
                    windowDays: SLO_WINDOW_DAYS.find((days) => String(days) === event.target.value) ?? 30,
                  })
                }
                error={fieldError("/window_days")}
              >
                <Options
                  items={SLO_WINDOW_DAYS}
                  value={(days) => String(days)}
                  label={(days) => `${days} days`}
                />
              </SelectField>
            </FieldRow>
          </FieldGroup>
          <FieldGroup legend="Burn-rate alerts">
            <Checkbox
              label="Alert when the budget burns too fast"
              checked={draft.alerting}
              onChange={(event) => set({ alerting: event.target.checked })}
            />
            <FieldRow>
              {BURN_RATES.map(({ key, label, hint, pointer }) => (
                <TextField
                  key={key}
                  label={label}
                  hint={hint}
                  inputMode="decimal"
                  disabled={!draft.alerting}
                  {...bind(key, pointer)}
                />
              ))}
            </FieldRow>
            <FieldGroup minor legend="Channels">
              <ChannelChecks
                wrap
                channels={channels.data}
                selected={draft.channelIds}
                onChange={(channelIds) => set({ channelIds })}
                none="No channels yet: add them on the Alerts page."
              />
            </FieldGroup>
          </FieldGroup>
        </Sections>
      </Card>
    </EditorPage>
  );
}
