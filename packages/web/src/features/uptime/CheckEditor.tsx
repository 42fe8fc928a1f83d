// Creating and editing an uptime check: target (URL, method, headers), schedule (interval,
// timeout), what a good answer is (status, body text), and who hears after how many failures.
// The server judges every field; its refusals show under the fields they name.
import type { UptimeCheck, UptimeMethod } from "@sightline/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { ChannelChecks, nameAndKind } from "../../components/forms/ChannelChecks";
import { EditorPage, FieldGroup } from "../../components/forms/Form";
import { NameField } from "../../components/forms/NameFields";
import { useDraftForm } from "../../components/forms/useDraftForm";
import { buttonClass } from "../../components/ui/Button";
import { Checkbox, CountField, SelectField, TextAreaField, TextField } from "../../components/ui/Field";
import { PageQuery } from "../../components/data/QueryView";
import { Card, Grid2, Stack } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { channelsQuery } from "../alerts";
import { checkQuery, uptimeApi, uptimeKeys } from "./api";
import { bodyFromDraft, type CheckDraft, draftFromCheck, NEW_CHECK } from "./check-draft";

const newRoute = getRouteApi("/app/projects/$project/uptime/new");
const editRoute = getRouteApi("/app/projects/$project/uptime/$checkId/edit");

// A record, so a method added to the contracts must be added here (the bundle leaves TypeBox out).
const METHODS: Record<UptimeMethod, true> = {
  GET: true,
  HEAD: true,
  POST: true,
  PUT: true,
  PATCH: true,
  DELETE: true,
  OPTIONS: true,
};
const methodOf = (value: string): UptimeMethod =>
  (Object.keys(METHODS) as UptimeMethod[]).find((method) => method === value) ?? "GET";

export function NewCheckPage() {
  const { project } = newRoute.useParams();
  return <CheckEditor project={project} check={null} />;
}

export function EditCheckPage() {
  const { project, checkId } = editRoute.useParams();
  const check = useQuery(checkQuery(project, checkId));
  return (
    <PageQuery query={check} what="the check">
      {(data) => <CheckEditor key={data.check.id} project={project} check={data.check} />}
    </PageQuery>
  );
}

function CheckEditor({ project, check }: { project: string; check: UptimeCheck | null }) {
  const canWrite = useProjectAccess(project).can("alerts:write");
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const channels = useQuery(channelsQuery(project));
  const { draft, set, save, error, fieldError, bind, bindValue } = useDraftForm<CheckDraft, UptimeCheck>({
    initial: () => (check === null ? NEW_CHECK : draftFromCheck(check)),
    save: (current) =>
      check === null
        ? uptimeApi.create(project, bodyFromDraft(current))
        : uptimeApi.update(project, check.id, bodyFromDraft(current)),
    onSaved: (saved) => {
      toast(check === null ? `Check “${saved.name}” created` : `Check “${saved.name}” saved`);
      void queryClient.invalidateQueries({ queryKey: uptimeKeys.all(project) });
      void navigate({ to: "/projects/$project/uptime/$checkId", params: { project, checkId: saved.id } });
    },
  });
  /** A header's refusal names the header (`/headers/X-Key`): shown under the one headers field. */
  const headersError = error?.fieldErrors.find(
    (one) => one.pointer === "/headers" || one.pointer.startsWith("/headers/"),
  );
  const cancel =
    check === null
      ? ({ to: "/projects/$project/uptime", params: { project } } as const)
      : ({ to: "/projects/$project/uptime/$checkId", params: { project, checkId: check.id } } as const);

  return (
    <EditorPage
      title={check === null ? "New uptime check" : `Edit “${check.name}”`}
      description="Sightline calls the URL on a schedule from outside your app; after the chosen number of failures in a row the check is down and its channels hear about it, and again when it recovers."
      canWrite={canWrite}
      readOnly="Only admins and owners of the project create and change uptime checks."
      save={save}
      submitLabel={check === null ? "Create check" : "Save check"}
      cancel={
        <Link className={buttonClass()} {...cancel}>
          Cancel
        </Link>
      }
    >
      <Card title="Target">
        <Stack>
          <Grid2>
            <NameField label="Check name" placeholder="Public API health" {...bindValue("name")} />
            <SelectField
              label="Method"
              value={draft.method}
              onChange={(event) => set({ method: methodOf(event.target.value) })}
              error={fieldError("/method")}
            >
              {(Object.keys(METHODS) as UptimeMethod[]).map((method) => (
                <option key={method} value={method}>
                  {method}
                </option>
              ))}
            </SelectField>
          </Grid2>
          <TextField
            label="URL"
            type="url"
            {...bind("url")}
            maxLength={2000}
            required
            placeholder="https://api.example.com/health"
            hint="An absolute http(s) URL reachable from Sightline; private addresses are refused."
          />
          <TextAreaField
            label="Headers"
            optional
            rows={3}
            {...bind("headers")}
            placeholder="Accept: application/json"
            hint="One “Name: value” a line; project members can read them."
            error={headersError === undefined ? undefined : headersError.message}
          />
        </Stack>
      </Card>
      <Card title="Schedule and success">
        <Grid2>
          <CountField label="Interval (seconds)" min={30} hint="30 or more." {...bind("interval_seconds")} />
          <CountField
            label="Timeout (ms)"
            min={100}
            hint="100 to 30000, the answer included."
            {...bind("timeout_ms")}
          />
          <CountField label="Expected status" min={100} max={599} {...bind("expected_status")} />
          <TextField
            label="Body contains"
            optional
            {...bind("body_contains")}
            maxLength={1000}
            placeholder={'"status":"ok"'}
            hint="Text the answer must contain; empty: any body."
          />
        </Grid2>
      </Card>
      <Card title="Alert">
        <Stack>
          <Grid2>
            <CountField
              label="Failures in a row before the alert"
              min={1}
              max={20}
              hint="1 to 20."
              {...bind("failure_threshold")}
            />
          </Grid2>
          <FieldGroup legend="Notify">
            <ChannelChecks
              channels={channels.data}
              selected={draft.channel_ids}
              onChange={(channel_ids) => set({ channel_ids })}
              label={nameAndKind}
              none="No channels yet: add them on the Alerts page."
            />
          </FieldGroup>
          <Checkbox
            label="Enabled: run this check"
            checked={draft.enabled}
            onChange={(event) => set({ enabled: event.target.checked })}
          />
        </Stack>
      </Card>
    </EditorPage>
  );
}
