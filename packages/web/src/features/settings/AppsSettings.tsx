// The project's apps: each with its framework, whether it runs (heartbeats) and creation date,
// opening its own settings; "New app" creates one with its first environment.
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { AppWindow, ChevronRight, Plus } from "lucide-react";
import { useId, useState } from "react";
import { initialsOf, Monogram } from "../../components/ui/Avatar";
import { Button } from "../../components/ui/Button";
import { Dialog, DialogActions } from "../../components/ui/Dialog";
import { Badge, EmptyState, ErrorPanel, SkeletonRows } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { DataTable } from "../../components/data/DataTable";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { formatDate, relativeTime } from "../../lib/format";
import { frameworkLabel } from "../../lib/frameworks";
import { appsQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import { CreateAppFields, useCreateApp } from "../apps";
import styles from "./Settings.module.css";

const route = getRouteApi("/app/projects/$project/settings/apps");

export function AppsSettings() {
  const { project } = route.useParams();
  const apps = useQuery(appsQuery(project));
  const timeZone = useTimeZone();
  const [creating, setCreating] = useState(false);
  const canCreate = useProjectAccess(project).can("apps:write");
  const newButton = canCreate ? (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus size={16} aria-hidden="true" />
      New app
    </Button>
  ) : undefined;
  return (
    <Card
      title="Apps"
      description="Each app is one service sending request records; records name their app by its slug."
      actions={apps.data && apps.data.length > 0 ? newButton : undefined}
    >
      {apps.isPending ? (
        <SkeletonRows rows={3} label="Loading apps" />
      ) : apps.isError ? (
        <ErrorPanel what="the apps" error={apps.error} onRetry={() => void apps.refetch()} />
      ) : apps.data.length === 0 ? (
        <EmptyState icon={AppWindow} title="No apps yet" action={newButton}>
          Create an app for each service you want to watch, then send its records with an API key.
        </EmptyState>
      ) : (
        <DataTable
          label="Apps"
          rows={apps.data}
          rowKey={(app) => app.id}
          columns={[
            {
              header: "App",
              cell: (app) => (
                <Link
                  to="/projects/$project/settings/apps/$app"
                  params={{ project, app: app.slug }}
                  className={styles.appName}
                >
                  <Monogram size="md">{app.icon || initialsOf(app.name)}</Monogram>
                  <span>
                    {app.name}
                    <br />
                    <span className={styles.slug}>{app.slug}</span>
                  </span>
                </Link>
              ),
            },
            { header: "Framework", cell: (app) => frameworkLabel(app.framework) },
            {
              // Heartbeats of @sightline/node (one a minute): alive while one came within 3 minutes.
              header: "Running",
              cell: (app) => (
                <span data-testid={`alive-${app.slug}`}>
                  {app.alive ? (
                    <Badge tone="success">Alive</Badge>
                  ) : app.last_heartbeat_at === null ? (
                    <Badge>No heartbeat</Badge>
                  ) : (
                    <Badge tone="warning">Silent</Badge>
                  )}{" "}
                  {app.last_heartbeat_at === null ? null : (
                    <span className={table.muted}>last beat {relativeTime(app.last_heartbeat_at)}</span>
                  )}
                </span>
              ),
            },
            {
              header: "Created",
              className: table.muted,
              cell: (app) => formatDate(app.created_at, timeZone),
            },
            {
              header: "Open",
              hiddenHeader: true,
              className: table.right,
              cell: () => <ChevronRight size={16} aria-hidden="true" />,
            },
          ]}
        />
      )}
      <NewAppDialog project={project} open={creating} onOpenChange={setCreating} />
    </Card>
  );
}

function NewAppDialog({
  project,
  open,
  onOpenChange,
}: {
  project: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const formId = useId();
  const toast = useToast();
  const navigate = useNavigate();
  const create = useCreateApp(project, (app) => {
    onOpenChange(false);
    toast(`App “${app.name}” created`);
    void navigate({ to: "/projects/$project/settings/apps/$app", params: { project, app: app.slug } });
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) create.reset();
        onOpenChange(next);
      }}
      title="New app"
      description="One service whose requests you want to see."
      footer={
        <DialogActions onCancel={() => onOpenChange(false)} form={formId} busy={create.isPending}>
          Create app
        </DialogActions>
      }
    >
      <CreateAppFields formId={formId} error={create.error} onSubmit={(app) => create.mutate(app)} />
    </Dialog>
  );
}
