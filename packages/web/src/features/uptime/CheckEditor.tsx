// Creating and editing an uptime check: target (URL, method, headers), schedule (interval,
// timeout), what a good answer is (status, body text), and who hears after how many failures.
// The server judges every field; its refusals show under the fields they name.
import type { UptimeCheck, UptimeMethod } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { Button, buttonClass } from "../../components/ui/Button";
import { Checkbox, SelectField, TextAreaField, TextField } from "../../components/ui/Field";
import {
  ErrorPanel,
  FailureNotice,
  Notice,
  ReadOnlyNotice,
  SkeletonRows,
} from "../../components/ui/Feedback";
import { Card, Grid2, Page, PageHeader, Row, Stack } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { isApiError } from "../../lib/api-client";
import { channelsQuery } from "../alerts";
import { checkQuery, uptimeApi, uptimeKeys } from "./api";
import { bodyFromDraft, type CheckDraft, draftFromCheck, NEW_CHECK } from "./check-draft";
import styles from "./Uptime.module.css";
import { NameField } from "../../components/forms/NameFields";

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
  if (check.isPending)
    return (
      <Page>
        <SkeletonRows rows={6} label="Loading the check" />
      </Page>
    );
  if (check.isError)
    return (
      <Page>
        <ErrorPanel what="the check" error={check.error} onRetry={() => void check.refetch()} />
      </Page>
    );
  return <CheckEditor key={check.data.check.id} project={project} check={check.data.check} />;
}

function CheckEditor({ project, check }: { project: string; check: UptimeCheck | null }) {
  const canWrite = useProjectAccess(project).can("alerts:write");
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const channels = useQuery(channelsQuery(project));
  const [draft, setDraft] = useState<CheckDraft>(() => (check === null ? NEW_CHECK : draftFromCheck(check)));

  const save = useMutation({
    mutationFn: () =>
      check === null
        ? uptimeApi.create(project, bodyFromDraft(draft))
        : uptimeApi.update(project, check.id, bodyFromDraft(draft)),
    onSuccess: (saved) => {
      toast(check === null ? `Check “${saved.name}” created` : `Check “${saved.name}” saved`);
      void queryClient.invalidateQueries({ queryKey: uptimeKeys.all(project) });
      void navigate({ to: "/projects/$project/uptime/$checkId", params: { project, checkId: saved.id } });
    },
  });
  const set = (patch: Partial<CheckDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    // A refusal is about what was sent: it goes once the person changes the form.
    if (save.isError) save.reset();
  };
  const error = isApiError(save.error) ? save.error : undefined;
  const fieldError = (pointer: string) => error?.fieldMessage(pointer);
  /** A header's refusal names the header (`/headers/X-Key`): shown under the one headers field. */
  const headersError = error?.fieldErrors.find(
    (one) => one.pointer === "/headers" || one.pointer.startsWith("/headers/"),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const cancel =
    check === null
      ? ({ to: "/projects/$project/uptime", params: { project } } as const)
      : ({ to: "/projects/$project/uptime/$checkId", params: { project, checkId: check.id } } as const);

  return (
    <Page>
      <PageHeader
        title={check === null ? "New uptime check" : `Edit “${check.name}”`}
        description="Sightline calls the URL on a schedule from outside your app; after the chosen number of failures in a row the check is down and its channels hear about it, and again when it recovers."
      />
      <ReadOnlyNotice canWrite={canWrite}>
        Only admins and owners of the project create and change uptime checks.
      </ReadOnlyNotice>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Card title="Target">
            <Stack>
              <Grid2>
                <NameField
                  label="Check name"
                  value={draft.name}
                  onValue={(name) => set({ name })}
                  placeholder="Public API health"
                  error={fieldError("/name")}
                />
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
                value={draft.url}
                onChange={(event) => set({ url: event.target.value })}
                maxLength={2000}
                required
                placeholder="https://api.example.com/health"
                hint="An absolute http(s) URL reachable from Sightline; private addresses are refused."
                error={fieldError("/url")}
              />
              <TextAreaField
                label="Headers"
                optional
                rows={3}
                value={draft.headers}
                onChange={(event) => set({ headers: event.target.value })}
                placeholder="Accept: application/json"
                hint="One “Name: value” a line; project members can read them."
                error={headersError === undefined ? undefined : headersError.message}
              />
            </Stack>
          </Card>
          <Card title="Schedule and success">
            <Stack>
              <Grid2>
                <TextField
                  label="Interval (seconds)"
                  type="number"
                  inputMode="numeric"
                  min={30}
                  step={1}
                  value={draft.interval_seconds}
                  onChange={(event) => set({ interval_seconds: event.target.value })}
                  hint="30 or more."
                  error={fieldError("/interval_seconds")}
                />
                <TextField
                  label="Timeout (ms)"
                  type="number"
                  inputMode="numeric"
                  min={100}
                  step={1}
                  value={draft.timeout_ms}
                  onChange={(event) => set({ timeout_ms: event.target.value })}
                  hint="100 to 30000, the answer included."
                  error={fieldError("/timeout_ms")}
                />
                <TextField
                  label="Expected status"
                  type="number"
                  inputMode="numeric"
                  min={100}
                  max={599}
                  step={1}
                  value={draft.expected_status}
                  onChange={(event) => set({ expected_status: event.target.value })}
                  error={fieldError("/expected_status")}
                />
                <TextField
                  label="Body contains"
                  optional
                  value={draft.body_contains}
                  onChange={(event) => set({ body_contains: event.target.value })}
                  maxLength={1000}
                  placeholder={'"status":"ok"'}
                  hint="Text the answer must contain; empty: any body."
                  error={fieldError("/body_contains")}
                />
              </Grid2>
            </Stack>
          </Card>
          <Card title="Alert">
            <Stack>
              <Grid2>
                <TextField
                  label="Failures in a row before the alert"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={20}
                  step={1}
                  value={draft.failure_threshold}
                  onChange={(event) => set({ failure_threshold: event.target.value })}
                  hint="1 to 20."
                  error={fieldError("/failure_threshold")}
                />
              </Grid2>
              <fieldset className={styles.group}>
                <legend className={styles.legend}>Notify</legend>
                {channels.data !== undefined && channels.data.length === 0 ? (
                  <p className={styles.quiet}>No channels yet: add them on the Alerts page.</p>
                ) : (
                  <Stack tight>
                    {(channels.data ?? []).map((channel) => (
                      <Checkbox
                        key={channel.id}
                        label={`${channel.name} (${channel.type === "email" ? "e-mail" : channel.type})`}
                        checked={draft.channel_ids.includes(channel.id)}
                        onChange={(event) =>
                          set({
                            channel_ids: event.target.checked
                              ? [...draft.channel_ids, channel.id]
                              : draft.channel_ids.filter((id) => id !== channel.id),
                          })
                        }
                      />
                    ))}
                  </Stack>
                )}
              </fieldset>
              <Checkbox
                label="Enabled: run this check"
                checked={draft.enabled}
                onChange={(event) => set({ enabled: event.target.checked })}
              />
            </Stack>
          </Card>
          <FailureNotice error={save.error} fieldsInline />
          {error !== undefined && error.fieldErrors.length > 0 ? (
            <Notice tone="danger" role="alert">
              Check the fields marked above.
            </Notice>
          ) : null}
          <Row>
            <Link className={buttonClass()} {...cancel}>
              Cancel
            </Link>
            <Button type="submit" variant="primary" busy={save.isPending} disabled={!canWrite}>
              {check === null ? "Create check" : "Save check"}
            </Button>
          </Row>
        </Stack>
      </form>
    </Page>
  );
}
