// A project's name and description (the slug, and so every URL, stays as it is), its retention,
// and deleting the project behind a typed confirmation that says what happens.
import type { Project, UpdateProjectBody } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { Mono } from "../../components/ui/Code";
import { DescriptionField, NameField } from "../../components/forms/NameFields";
import { loadingOrFailed } from "../../components/ui/Feedback";
import { useToast } from "../../components/ui/Toast";
import { Card } from "../../components/ui/Surface";
import { useProjectAccess } from "../../lib/access";
import { isApiError } from "../../lib/api-client";
import { keys, projectQuery } from "../../lib/queries";
import { projectsApi } from "../../lib/resources-api";
import { RetentionCard } from "./RetentionCard";
import { DangerZoneCard } from "./DangerZoneCard";
import styles from "./Settings.module.css";
import { SettingsForm } from "./SettingsForm";

const route = getRouteApi("/app/projects/$project/settings/");

export function GeneralSettings() {
  const { project } = route.useParams();
  const info = useQuery(projectQuery(project));
  const access = useProjectAccess(project);
  const notLoaded = loadingOrFailed(info, { title: "General", what: "this project", rows: 3 });
  if (info.data === undefined) return notLoaded;
  return (
    <>
      {/* Keyed by the stored version: a saved change elsewhere resets the form. */}
      <GeneralForm key={info.data.updated_at} project={info.data} canEdit={access.can("project:write")} />
      <RetentionCard project={project} canEdit={access.can("project:write")} />
      {access.can("project:delete") ? <DangerZone project={info.data} /> : null}
    </>
  );
}

function GeneralForm({ project, canEdit }: { project: Project; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description);
  const save = useMutation({
    mutationFn: (body: UpdateProjectBody) => projectsApi.update(project.slug, body),
    onSuccess: async (updated) => {
      queryClient.setQueryData(keys.project(project.slug), updated);
      await queryClient.invalidateQueries({ queryKey: keys.projects });
      toast("Project saved");
    },
  });
  const error = isApiError(save.error) ? save.error : undefined;
  const dirty = name.trim() !== project.name || description.trim() !== project.description;
  const submit = () => save.mutate({ name: name.trim(), description: description.trim() });
  return (
    <Card title="General" description="How the project appears in the dashboard.">
      {/* Admins and owners change the project; everyone else reads it. */}
      <SettingsForm
        onSubmit={submit}
        canEdit={canEdit}
        error={error}
        busy={save.isPending}
        disabled={!dirty || name.trim() === ""}
      >
        <NameField label="Project name" value={name} onValue={setName} error={error?.fieldMessage("/name")} />
        <DescriptionField
          value={description}
          onValue={setDescription}
          error={error?.fieldMessage("/description")}
        />
        <div className={styles.readOnly}>
          <span className={styles.readOnlyLabel}>Slug</span>
          <span>
            <Mono>{project.slug}</Mono>{" "}
            <span className={styles.dangerMeta}>Used in URLs and by SDKs; renaming never changes it.</span>
          </span>
        </div>
      </SettingsForm>
    </Card>
  );
}

function DangerZone({ project }: { project: Project }) {
  const navigate = useNavigate();
  return (
    <DangerZoneCard
      title="Delete this project"
      meta="Its apps go with it and its API keys stop working at once."
      actionLabel="Delete project"
      confirm={{
        title: `Delete ${project.name}?`,
        description: "This cannot be undone from the dashboard.",
        consequences: [
          "Every app of the project is deleted.",
          "Every API key is revoked: ingest with them stops at once.",
          "Recorded requests and logs stay until retention removes them, but nobody can read them.",
        ],
        confirmText: project.slug,
      }}
      remove={() => projectsApi.remove(project.slug)}
      deleted={{
        slug: project.slug,
        item: keys.project(project.slug),
        list: keys.projects,
        toast: `Project “${project.name}” deleted`,
      }}
      leave={() => navigate({ to: "/projects" })}
    />
  );
}
