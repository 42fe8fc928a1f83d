// Personal access tokens on the Security page: create one (name, expiry, scope, projects) and see
// it once with copy, list them (prefix, created, last used, expiry), revoke behind a confirmation.
import type {
  CreatedPersonalToken,
  CreatePersonalTokenBody,
  Message,
  PersonalToken,
  TokenScope,
} from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/Button";
import { Mono } from "../../components/ui/Code";
import { ConfirmOn, Dialog, DialogActions, SecretShownOnceDialog } from "../../components/ui/Dialog";
import { NameField, WHERE_USED } from "../../components/forms/NameFields";
import { Checkbox, SelectField, Options } from "../../components/ui/Field";
import { Badge, Notice } from "../../components/ui/Feedback";
import { Card, Stack } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { Actions, WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { QueryView } from "../../components/data/QueryView";
import { useToast } from "../../components/ui/Toast";
import { api, isApiError } from "../../lib/api-client";
import { formatDateTime } from "../../lib/format";
import { keys, personalTokensQuery, projectsQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import styles from "./Account.module.css";

const EXPIRY_CHOICES = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "never", label: "No expiry" },
] as const;

export function AccessTokensCard() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const timeZone = useTimeZone();
  const tokens = useQuery(personalTokensQuery);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<PersonalToken | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.personalTokens });
  const revoke = useMutation({
    mutationFn: (token: PersonalToken) =>
      api.delete<Message>(`/users/me/tokens/${encodeURIComponent(token.id)}`),
    onSuccess: async (_data, token) => {
      setRevoking(null);
      await refresh();
      toast(`Revoked ${token.name}`);
    },
  });
  return (
    <Card
      title="Access tokens"
      description="Call the API as yourself from scripts with the header Authorization: Bearer <token>. A token acts with your role in each project, capped by its scope."
      actions={
        <Button size="sm" variant="primary" onClick={() => setCreating(true)}>
          <KeyRound size={14} aria-hidden="true" />
          Create token
        </Button>
      }
    >
      <QueryView
        query={tokens}
        what="your access tokens"
        rows={2}
        empty={{
          when: (data) => data.tokens.length === 0,
          show: <p className={styles.muted}>No access tokens yet. Create one for a script or a CI job.</p>,
        }}
      >
        {(data) => (
          <DataTable
            label="Access tokens"
            rows={data.tokens}
            rowKey={(token) => token.id}
            columns={[
              { header: "Name", cell: (token) => token.name },
              { header: "Token", cell: (token) => <Mono>{token.prefix}…</Mono> },
              {
                header: "Scope",
                cell: (token) => (
                  <span className={styles.tokenScope}>
                    {token.scope === "read" ? "Read-only" : "Read and write"}
                    <span className={table.muted}>
                      {token.projects === null
                        ? "All your projects"
                        : token.projects.map((project) => project.name).join(", ") || "No projects left"}
                    </span>
                  </span>
                ),
              },
              { header: "Created", cell: (token) => <WhenCell iso={token.created_at} zone={timeZone} /> },
              { header: "Last used", cell: (token) => <WhenCell iso={token.last_used_at} zone={timeZone} /> },
              {
                header: "Expires",
                className: table.muted,
                cell: (token) =>
                  token.is_expired ? (
                    <Badge tone="warning">Expired</Badge>
                  ) : token.expires_at === null ? (
                    "Never"
                  ) : (
                    formatDateTime(token.expires_at, timeZone)
                  ),
              },
              {
                header: "Actions",
                hiddenHeader: true,
                cell: (token) => (
                  <Actions>
                    <Button
                      size="sm"
                      variant="dangerOutline"
                      onClick={() => setRevoking(token)}
                      aria-label={`Revoke token ${token.name}`}
                    >
                      Revoke
                    </Button>
                  </Actions>
                ),
              },
            ]}
          />
        )}
      </QueryView>
      <CreateTokenDialog open={creating} onOpenChange={setCreating} onCreated={() => void refresh()} />
      <ConfirmOn
        target={revoking}
        onClose={() => setRevoking(null)}
        mutation={revoke}
        title={(token) => `Revoke “${token.name}”?`}
        description={(token) =>
          `Token ${token.prefix}… stops working at once: anything still calling with it gets 401.`
        }
        confirmLabel="Revoke token"
      />
    </Card>
  );
}

/** Name, expiry, scope and projects → create → the whole token, once, with copy. */
function CreateTokenDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: () => void;
}) {
  const projects = useQuery({ ...projectsQuery, enabled: open });
  const [name, setName] = useState("");
  const [expiry, setExpiry] = useState<string>("90");
  const [scope, setScope] = useState<TokenScope>("read");
  const [limit, setLimit] = useState(false);
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const create = useMutation({
    mutationFn: (body: CreatePersonalTokenBody) => api.post<CreatedPersonalToken>("/users/me/tokens", body),
    onSuccess: onCreated,
  });
  const close = (next: boolean) => {
    if (!next) {
      create.reset();
      setName("");
      setExpiry("90");
      setScope("read");
      setLimit(false);
      setChosen([]);
    }
    onOpenChange(next);
  };
  const error = isApiError(create.error) ? create.error : undefined;
  if (create.data) {
    return (
      <SecretShownOnceDialog
        open={open}
        onOpenChange={close}
        what="access token"
        name={create.data.name}
        secret={create.data.token}
      />
    );
  }
  const submit = () =>
    create.mutate({
      name: name.trim(),
      scope,
      expires_in_days: expiry === "never" ? null : Number(expiry),
      ...(limit ? { project_slugs: [...chosen] } : {}),
    });
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Create an access token"
      description="It acts as you. Managing tokens, sessions and your password always needs a sign-in."
      onSubmit={submit}
      footer={
        <DialogActions
          onCancel={() => close(false)}
          busy={create.isPending}
          disabled={name.trim() === "" || (limit && chosen.length === 0)}
        >
          Create token
        </DialogActions>
      }
    >
      <Stack>
        <NameField
          label="Token name"
          value={name}
          onValue={setName}
          placeholder="nightly report"
          autoFocus
          hint={WHERE_USED}
          error={error?.fieldMessage("/name")}
        />
        <SelectField label="Expires after" value={expiry} onChange={(event) => setExpiry(event.target.value)}>
          <Options items={EXPIRY_CHOICES} value={(choice) => choice.value} label={(choice) => choice.label} />
        </SelectField>
        <SelectField
          label="Scope"
          value={scope}
          onChange={(event) => setScope(event.target.value as TokenScope)}
          hint="Read-only tokens can read projects, data, alerts and audit logs, and change nothing."
        >
          <option value="read">Read-only</option>
          <option value="read-write">Read and write (everything your role allows)</option>
        </SelectField>
        <Checkbox
          label="Only some projects"
          checked={limit}
          onChange={(event) => setLimit(event.target.checked)}
        />
        {limit ? (
          <fieldset className={styles.tokenProjects}>
            <legend>Projects the token may reach</legend>
            {projects.data?.map((project) => (
              <Checkbox
                key={project.id}
                label={project.name}
                checked={chosen.includes(project.slug)}
                onChange={(event) =>
                  setChosen((current) =>
                    event.target.checked
                      ? [...current, project.slug]
                      : current.filter((slug) => slug !== project.slug),
                  )
                }
              />
            ))}
          </fieldset>
        ) : null}
        {error && error.fieldErrors.length === 0 ? (
          <Notice tone={error.code === "limit_reached" ? "warning" : "danger"} role="alert">
            {error.detail}
          </Notice>
        ) : null}
      </Stack>
    </Dialog>
  );
}
