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
import { ConfirmOn } from "../../components/ui/Dialog";
import { CreateSecretDialog } from "../../components/forms/CreateSecretDialog";
import { Checkbox, SelectField, Options } from "../../components/ui/Field";
import { Badge } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { revokeColumn, WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { QueryView } from "../../components/data/QueryView";
import { useToast } from "../../components/ui/Toast";
import { api } from "../../lib/api-client";
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
              revokeColumn<PersonalToken>({
                label: (token) => `Revoke token ${token.name}`,
                onRevoke: setRevoking,
              }),
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
  const [expiry, setExpiry] = useState<string>("90");
  const [scope, setScope] = useState<TokenScope>("read");
  const [limit, setLimit] = useState(false);
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const create = (name: string) =>
    api.post<CreatedPersonalToken>("/users/me/tokens", {
      name,
      scope,
      expires_in_days: expiry === "never" ? null : Number(expiry),
      ...(limit ? { project_slugs: [...chosen] } : {}),
    } satisfies CreatePersonalTokenBody);
  const reset = () => {
    setExpiry("90");
    setScope("read");
    setLimit(false);
    setChosen([]);
  };
  return (
    <CreateSecretDialog
      open={open}
      onOpenChange={onOpenChange}
      what="access token"
      title="Create an access token"
      description="It acts as you. Managing tokens, sessions and your password always needs a sign-in."
      nameLabel="Token name"
      placeholder="nightly report"
      submitLabel="Create token"
      create={create}
      secretOf={(created) => created.token}
      onCreated={onCreated}
      onReset={reset}
      ready={!limit || chosen.length > 0}
    >
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
    </CreateSecretDialog>
  );
}
