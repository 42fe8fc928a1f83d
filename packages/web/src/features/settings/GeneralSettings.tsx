// A project's name and description (the slug, and so every URL, stays as it is), its retention,
// and deleting the project behind a typed confirmation that says what happens.
import type { Project, UpdateProjectBody } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { Mono } from "../../components/ui/Code";
import { DescriptionField, NameField } from "../../components/forms/NameFields";
import { loadingOrFailed } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { useProjectAccess } from "../../lib/access";
import { keys, projectQuery } from "../../lib/queries";
import { projectsApi } from "../../lib/resources-api";
import { RetentionCard } from "./RetentionCard";
import { DangerZoneCard } from "./DangerZoneCard";
import styles from "./Settings.module.css";
import { SettingsForm } from "./SettingsForm";
import { useSettingsSave } from "./useSettingsSave";

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
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description);
  const { save, error } = useSettingsSave({
    request: (body: UpdateProjectBody) => projectsApi.update(project.slug, body),
    item: keys.project(project.slug),
    list: keys.projects,
    saved: "Project saved",
  });
  const dirty = name.trim() !== project.name || description.trim() !== project.description;
  const submit = () => save.mutate({ name: name.trim(), description: description.trim() });
  return (
    <Card title="General" description="How the project appears in the dashboard.">
      {/* Admins and owners change the project; everyone else reads it. */}
      <SettingsForm onSubmit={submit} canEdit={canEdit} save={save} disabled={!dirty || name.trim() === ""}>
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
      kind="project"
      record={project}
      meta="Its apps go with it and its API keys stop working at once."
      description="This cannot be undone from the dashboard."
      consequences={[
        "Every app of the project is deleted.",
        "Every API key is revoked: ingest with them stops at once.",
        "Recorded requests and logs stay until retention removes them, but nobody can read them.",
      ]}
      remove={() => projectsApi.remove(project.slug)}
      cached={{ item: keys.project(project.slug), list: keys.projects }}
      leave={() => navigate({ to: "/projects" })}
    />
  );
}
