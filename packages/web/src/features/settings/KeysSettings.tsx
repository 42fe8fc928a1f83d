// Every API key of the project, project-wide and per app, against the limit of 20 live keys:
// create (shown once), see what each is for and when it was last used, revoke.
import { RESOURCE_LIMITS_LIVE_KEYS } from "./limits";
import { useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { KeyRound, Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/Button";
import { SelectField } from "../../components/ui/Field";
import { EmptyState, ErrorPanel, Notice, SkeletonRows } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { appKeysQuery, appsQuery, projectKeysQuery } from "../../lib/queries";
import { appsApi, projectsApi } from "../../lib/resources-api";
import { CreateKeyDialog, type KeyRow, KeysTable } from "./KeysTable";
import styles from "./Settings.module.css";

const route = getRouteApi("/app/projects/$project/settings/keys");

export function KeysSettings() {
  const { project } = route.useParams();
  const access = useProjectAccess(project);
  if (!access.loaded) {
    return (
      <Card title="API keys">
        <SkeletonRows rows={3} label="Loading API keys" />
      </Card>
    );
  }
  if (!access.can("keys:manage")) {
    return (
      <Card title="API keys">
        <Notice tone="info" role="status">
          Only admins and owners can see and manage this project's API keys.
        </Notice>
      </Card>
    );
  }
  return <KeysCard project={project} />;
}

function KeysCard({ project }: { project: string }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const apps = useQuery(appsQuery(project));
  const projectKeys = useQuery(projectKeysQuery(project));
  const appKeys = useQueries({ queries: (apps.data ?? []).map((app) => appKeysQuery(project, app.slug)) });
  const [creating, setCreating] = useState(false);
  const [scope, setScope] = useState("");

  const failed = [apps, projectKeys, ...appKeys].find((query) => query.isError);
  const loading = apps.isPending || projectKeys.isPending || appKeys.some((query) => query.isPending);
  const rows: KeyRow[] = [
    ...(projectKeys.data ?? []).map((key) => ({
      key,
      scope: "Project",
      revoke: () => projectsApi.revokeKey(project, key.id),
    })),
    ...(apps.data ?? []).flatMap((app, index) =>
      (appKeys[index]?.data ?? []).map((key) => ({
        key,
        scope: app.name,
        revoke: () => appsApi.revokeKey(project, app.slug, key.id),
      })),
    ),
  ].sort(
    (a, b) =>
      Number(a.key.is_revoked) - Number(b.key.is_revoked) || b.key.created_at.localeCompare(a.key.created_at),
  );
  const live = rows.filter((row) => !row.key.is_revoked).length;
  const atLimit = live >= RESOURCE_LIMITS_LIVE_KEYS;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["projects", project] });

  return (
    <Card
      title="API keys"
      description="Applications authenticate their records with these keys. A project key may send for any app; an app key only for its app."
      actions={
        <Button
          variant="primary"
          onClick={() => setCreating(true)}
          disabled={loading || atLimit || failed !== undefined}
        >
          <Plus size={16} aria-hidden="true" />
          Create key
        </Button>
      }
      footer={
        loading || failed ? undefined : (
          <div className={styles.counter}>
            <div className={styles.meter} aria-hidden="true">
              <div
                className={[styles.meterFill, atLimit ? styles.meterFull : ""].join(" ")}
                style={{ width: `${Math.min(100, (live / RESOURCE_LIMITS_LIVE_KEYS) * 100)}%` }}
              />
            </div>
            <span>
              {live} of {RESOURCE_LIMITS_LIVE_KEYS} live keys
            </span>
          </div>
        )
      }
    >
      {failed ? (
        <ErrorPanel what="the API keys" error={failed.error} onRetry={() => void refresh()} />
      ) : loading ? (
        <SkeletonRows rows={3} label="Loading API keys" />
      ) : (
        <>
          {atLimit ? (
            <Notice tone="warning" title="Key limit reached" role="status">
              This project has {RESOURCE_LIMITS_LIVE_KEYS} live keys, the most a project can have. Revoke one
              you no longer use to create another.
            </Notice>
          ) : null}
          {rows.length === 0 ? (
            <EmptyState
              icon={KeyRound}
              title="No API keys yet"
              action={
                <Button variant="primary" onClick={() => setCreating(true)}>
                  Create key
                </Button>
              }
            >
              Create a key, then send records with it in the X-API-Key header.
            </EmptyState>
          ) : (
            <KeysTable
              rows={rows}
              onRevoked={(row) => {
                toast(`Key “${row.key.name}” revoked`);
                void refresh();
              }}
            />
          )}
        </>
      )}
      <CreateKeyDialog
        open={creating}
        onOpenChange={(open) => {
          setCreating(open);
          if (!open) void refresh();
        }}
        create={(name) =>
          scope === "" ? projectsApi.createKey(project, name) : appsApi.createKey(project, scope, name)
        }
        extraFields={
          <SelectField
            label="May send records for"
            value={scope}
            onChange={(event) => setScope(event.target.value)}
            hint="An app key is refused for any other app's records."
          >
            <option value="">Any app of this project</option>
            {(apps.data ?? []).map((app) => (
              <option key={app.slug} value={app.slug}>
                {app.name} only
              </option>
            ))}
          </SelectField>
        }
      />
    </Card>
  );
}
