// An app's environments: colour, order (moved up and down), rename-free delete, and adding
// one. Environments also appear by themselves when records name them.
import type { App as AppRecord, Environment } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { Button, IconButton } from "../../components/ui/Button";
import { Mono } from "../../components/ui/Code";
import { ConfirmOn } from "../../components/ui/Dialog";
import { TextField } from "../../components/ui/Field";
import { FailureNotice } from "../../components/ui/Feedback";
import { QueryView } from "../../components/data/QueryView";
import { Card } from "../../components/ui/Surface";
import { HiddenHeader, table } from "../../components/ui/Table";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { isApiError } from "../../lib/api-client";
import { environmentsQuery, keys } from "../../lib/queries";
import { environmentsApi } from "../../lib/resources-api";
import { RESOURCE_LIMITS_ENVIRONMENTS } from "./limits";
import styles from "./Settings.module.css";
import { useConfirmedDelete } from "../../components/data/useConfirmedDelete";

/** The orders to write so `list` (already in the wanted sequence) reads 0, 1, 2, … */
export function reorderPatches(list: readonly Environment[]): Array<{ slug: string; order: number }> {
  return list.flatMap((env, index) => (env.order === index ? [] : [{ slug: env.slug, order: index }]));
}

export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  if (item !== undefined) copy.splice(to, 0, item);
  return copy;
}

export function EnvironmentsCard({ project, app }: { project: string; app: AppRecord }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const environments = useQuery(environmentsQuery(project, app.slug));
  // Viewers see the environments; members and up change them.
  const canEdit = useProjectAccess(project).can("environments:write");
  const [name, setName] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.environments(project, app.slug) });

  const add = useMutation({
    mutationFn: (envName: string) => environmentsApi.create(project, app.slug, { name: envName }),
    onSuccess: async (env) => {
      setName("");
      await refresh();
      toast(`Environment “${env.name}” added`);
    },
  });
  const reorder = useMutation({
    mutationFn: async (list: Environment[]) => {
      for (const patch of reorderPatches(list)) {
        await environmentsApi.update(project, app.slug, patch.slug, { order: patch.order });
      }
    },
    onSettled: () => refresh(),
  });
  const deletion = useConfirmedDelete({
    remove: (env: Environment) => environmentsApi.remove(project, app.slug, env.slug),
    stale: keys.environments(project, app.slug),
    deleted: (env) => `Environment “${env.name}” deleted`,
  });

  const list = environments.data ?? [];
  const addError = isApiError(add.error) ? add.error : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name.trim());
  };
  return (
    <Card
      title="Environments"
      description="Where the app runs. Records name their environment; new names appear here by themselves."
    >
      <QueryView query={environments} what="the environments" rows={2}>
        {() => (
          <>
            {list.length === 0 ? (
              <p className={styles.dangerMeta}>
                No environments yet. Add one below, or send a record that names one.
              </p>
            ) : (
              <div className={table.wrap}>
                <table className={table.table}>
                  <thead>
                    <tr>
                      <th scope="col">Colour</th>
                      <th scope="col">Environment</th>
                      <th scope="col">Slug</th>
                      <th scope="col">Order</th>
                      <HiddenHeader label="Actions" />
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((env, index) => (
                      <tr key={env.id}>
                        <td>
                          <ColourInput
                            key={env.updated_at}
                            project={project}
                            app={app.slug}
                            env={env}
                            onSaved={refresh}
                            disabled={!canEdit}
                          />
                        </td>
                        <td>
                          <span className={styles.envName}>{env.name}</span>
                        </td>
                        <td>
                          <Mono>{env.slug}</Mono>
                        </td>
                        <td>
                          {canEdit ? (
                            <span className={styles.orderButtons}>
                              <IconButton
                                label={`Move ${env.name} up`}
                                icon={ArrowUp}
                                disabled={index === 0 || reorder.isPending}
                                onClick={() => reorder.mutate(moved(list, index, index - 1))}
                              />
                              <IconButton
                                label={`Move ${env.name} down`}
                                icon={ArrowDown}
                                disabled={index === list.length - 1 || reorder.isPending}
                                onClick={() => reorder.mutate(moved(list, index, index + 1))}
                              />
                            </span>
                          ) : (
                            index + 1
                          )}
                        </td>
                        <td>
                          <div className={table.actions}>
                            {canEdit ? (
                              <IconButton
                                label={`Delete environment ${env.name}`}
                                icon={Trash2}
                                onClick={() => deletion.ask(env)}
                              />
                            ) : null}
                          </div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <FailureNotice error={reorder.error} fallback="The order could not be saved." />
            {canEdit ? (
              <form className={styles.addRow} onSubmit={submit}>
                <TextField
                  label="New environment"
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                  placeholder="e.g. staging"
                  maxLength={64}
                  error={addError?.detail}
                  hint={`Up to ${RESOURCE_LIMITS_ENVIRONMENTS} per app.`}
                />
                <Button type="submit" busy={add.isPending} disabled={name.trim() === ""}>
                  Add environment
                </Button>
              </form>
            ) : null}
          </>
        )}
      </QueryView>
      <ConfirmOn
        {...deletion.confirm}
        title={(env) => `Delete environment “${env.name}”?`}
        description={() =>
          "Records keep the environment they were sent with; the name comes back if new records use it."
        }
        confirmLabel="Delete environment"
      />
    </Card>
  );
}

/** A colour picker that saves a moment after the last change. */
function ColourInput({
  project,
  app,
  env,
  onSaved,
  disabled,
}: {
  project: string;
  app: string;
  env: Environment;
  onSaved: () => Promise<unknown>;
  disabled: boolean;
}) {
  const toast = useToast();
  const [colour, setColour] = useState(env.color);
  const save = useMutation({
    mutationFn: (color: string) => environmentsApi.update(project, app, env.slug, { color }),
    onSuccess: async () => {
      await onSaved();
      toast(`Colour of “${env.name}” saved`);
    },
  });
  useEffect(() => {
    if (colour.toLowerCase() === env.color.toLowerCase() || !/^#[0-9a-f]{6}$/i.test(colour)) return;
    const timer = window.setTimeout(() => save.mutate(colour), 400);
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- saves the colour, not on every render
  }, [colour, env.color]);
  return (
    <input
      type="color"
      className={styles.colorInput}
      value={/^#[0-9a-f]{6}$/i.test(colour) ? colour : "#6366f1"}
      onChange={(event) => setColour(event.target.value)}
      aria-label={`Colour of ${env.name}`}
      disabled={disabled}
    />
  );
}
