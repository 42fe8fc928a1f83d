// An app's endpoint catalogue: every method and route seen in its records (or declared),
// with a description to edit and a switch to turn an endpoint off; endpoints can be deleted.
import type { App as AppRecord, Endpoint } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Route, Trash2 } from "lucide-react";
import { useState } from "react";
import { IconButton } from "../../components/ui/Button";
import { ConfirmOn } from "../../components/ui/Dialog";
import { EmptyState, FailureNotice } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { Switch } from "../../components/ui/Switch";
import { table } from "../../components/ui/Table";
import { Actions, WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { QueryView } from "../../components/data/QueryView";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { endpointsQuery, keys } from "../../lib/queries";
import { endpointsApi } from "../../lib/resources-api";
import styles from "./Settings.module.css";
import { useConfirmedDelete } from "../../components/data/useConfirmedDelete";

export function EndpointsCard({ project, app }: { project: string; app: AppRecord }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const endpoints = useQuery(endpointsQuery(project, app.slug));
  const canEdit = useProjectAccess(project).can("endpoints:write");
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.endpoints(project, app.slug) });
  const update = useMutation({
    mutationFn: ({ id, ...body }: { id: string; description?: string; is_active?: boolean }) =>
      endpointsApi.update(project, app.slug, id, body),
    onSuccess: async (endpoint, variables) => {
      await refresh();
      if (variables.is_active !== undefined) {
        toast(`${endpoint.method} ${endpoint.path} switched ${endpoint.is_active ? "on" : "off"}`);
      } else toast("Description saved");
    },
  });
  const deletion = useConfirmedDelete({
    remove: (endpoint: Endpoint) => endpointsApi.remove(project, app.slug, endpoint.id),
    stale: keys.endpoints(project, app.slug),
    deleted: () => "Endpoint deleted",
  });
  return (
    <Card
      title="Endpoints"
      description="The routes this app serves, as its records report them. Switch off the ones you do not want to track."
    >
      <QueryView
        query={endpoints}
        what="the endpoints"
        rows={3}
        empty={{
          when: (rows) => rows.length === 0,
          show: (
            <EmptyState icon={Route} title="No endpoints yet">
              Endpoints appear here by themselves as request records arrive, one per method and route.
            </EmptyState>
          ),
        }}
      >
        {(rows) => (
          <>
            <FailureNotice error={update.error} fallback="The change could not be saved." />
            <DataTable
              label="Endpoints"
              rows={rows}
              rowKey={(endpoint) => endpoint.id}
              rowClass={(endpoint) => (endpoint.is_active ? undefined : table.revoked)}
              columns={[
                {
                  header: "Method",
                  cell: (endpoint) => <span className={styles.method}>{endpoint.method}</span>,
                },
                { header: "Route", className: styles.path, cell: (endpoint) => endpoint.path },
                {
                  header: "Description",
                  cell: (endpoint) =>
                    canEdit ? (
                      <DescriptionInput
                        key={endpoint.updated_at}
                        endpoint={endpoint}
                        onSave={(description) => update.mutate({ id: endpoint.id, description })}
                      />
                    ) : (
                      endpoint.description || <span className={table.muted}>No description</span>
                    ),
                },
                {
                  header: "Last seen",
                  cell: (endpoint) => <WhenCell iso={endpoint.last_seen_at} zone={undefined} />,
                },
                {
                  header: "Tracked",
                  cell: (endpoint) => (
                    <Switch
                      checked={endpoint.is_active}
                      label={`Track ${endpoint.method} ${endpoint.path}`}
                      disabled={update.isPending || !canEdit}
                      onChange={(checked) => update.mutate({ id: endpoint.id, is_active: checked })}
                    />
                  ),
                },
                {
                  header: "Actions",
                  hiddenHeader: true,
                  cell: (endpoint) => (
                    <Actions>
                      {canEdit ? (
                        <IconButton
                          label={`Delete ${endpoint.method} ${endpoint.path}`}
                          icon={Trash2}
                          onClick={() => deletion.ask(endpoint)}
                        />
                      ) : null}
                    </Actions>
                  ),
                },
              ]}
            />
          </>
        )}
      </QueryView>
      <ConfirmOn
        {...deletion.confirm}
        title={(endpoint) => `Delete ${endpoint.method} ${endpoint.path}?`}
        description={() => "It leaves the catalogue; if records keep arriving for it, it comes back."}
        confirmLabel="Delete endpoint"
      />
    </Card>
  );
}

/** Edits in place; Enter or leaving the field saves, Escape restores. */
function DescriptionInput({ endpoint, onSave }: { endpoint: Endpoint; onSave: (value: string) => void }) {
  const [value, setValue] = useState(endpoint.description);
  const commit = () => {
    if (value.trim() !== endpoint.description) onSave(value.trim());
  };
  return (
    <input
      className={styles.descriptionInput}
      value={value}
      maxLength={2000}
      placeholder="Add a description"
      aria-label={`Description of ${endpoint.method} ${endpoint.path}`}
      onChange={(event) => setValue(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          commit();
        }
        if (event.key === "Escape") setValue(endpoint.description);
      }}
    />
  );
}
