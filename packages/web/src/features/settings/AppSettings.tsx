// One app: its details, environments, endpoint catalogue and keys, and deleting it.
import type { App as AppRecord, Framework, UpdateAppBody } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { Rocket } from "lucide-react";
import { useState } from "react";
import { FrameworkSelect } from "../../components/forms/FrameworkSelect";
import { buttonClass } from "../../components/ui/Button";
import { Mono } from "../../components/ui/Code";
import { DescriptionField, NameField } from "../../components/forms/NameFields";
import { TextField } from "../../components/ui/Field";
import { loadingOrFailed } from "../../components/ui/Feedback";
import { Card, Grid2 } from "../../components/ui/Surface";
import { useProjectAccess } from "../../lib/access";
import { appQuery, keys } from "../../lib/queries";
import { appsApi } from "../../lib/resources-api";
import { AppKeysCard } from "./AppKeysCard";
import { EndpointsCard } from "./EndpointsCard";
import { EnvironmentsCard } from "./EnvironmentsCard";
import { DangerZoneCard } from "./DangerZoneCard";
import { SettingsForm } from "./SettingsForm";
import { useSettingsSave } from "./useSettingsSave";

const route = getRouteApi("/app/projects/$project/settings/apps/$app");

export function AppSettings() {
  const { project, app } = route.useParams();
  const info = useQuery(appQuery(project, app));
  const access = useProjectAccess(project);
  const notLoaded = loadingOrFailed(info, { title: "App", what: "this app" });
  if (info.data === undefined) return notLoaded;
  return (
    <>
      <DetailsCard
        key={info.data.updated_at}
        project={project}
        app={info.data}
        canEdit={access.can("apps:write")}
      />
      <EnvironmentsCard project={project} app={info.data} />
      <EndpointsCard project={project} app={info.data} />
      {access.can("keys:manage") ? <AppKeysCard project={project} app={info.data} /> : null}
      {access.can("apps:write") ? <DangerZone project={project} app={info.data} /> : null}
    </>
  );
}

function DetailsCard({ project, app, canEdit }: { project: string; app: AppRecord; canEdit: boolean }) {
  const [name, setName] = useState(app.name);
  const [description, setDescription] = useState(app.description);
  const [framework, setFramework] = useState(app.framework);
  const [icon, setIcon] = useState(app.icon);
  const { save, error } = useSettingsSave({
    request: (body: UpdateAppBody) => appsApi.update(project, app.slug, body),
    item: keys.app(project, app.slug),
    list: keys.apps(project),
    saved: "App saved",
  });
  const dirty =
    name.trim() !== app.name ||
    description.trim() !== app.description ||
    framework !== app.framework ||
    icon !== app.icon;
  const submit = () =>
    save.mutate({
      name: name.trim(),
      description: description.trim(),
      framework: framework as Framework,
      icon,
    });
  return (
    <Card
      title={app.name}
      description={
        <>
          Records name this app as <Mono>{app.slug}</Mono> in their <Mono>app_id</Mono>.
        </>
      }
      actions={
        <Link
          to="/projects/$project/setup"
          params={{ project }}
          search={{ app: app.slug }}
          className={buttonClass({ size: "sm" })}
        >
          <Rocket size={14} aria-hidden="true" />
          Setup
        </Link>
      }
    >
      {/* A disabled fieldset: viewers read the details; members and up change them. */}
      <SettingsForm onSubmit={submit} canEdit={canEdit} save={save} disabled={!dirty || name.trim() === ""}>
        <Grid2>
          <NameField label="App name" value={name} onValue={setName} error={error?.fieldMessage("/name")} />
          <FrameworkSelect value={framework} onFramework={setFramework} />
        </Grid2>
        <DescriptionField
          value={description}
          onValue={setDescription}
          error={error?.fieldMessage("/description")}
        />
        <TextField
          label="Icon"
          optional
          value={icon}
          onChange={(event) => setIcon(event.target.value)}
          maxLength={32}
          placeholder="An emoji, e.g. a shopping cart"
          hint="Shown next to the app's name."
          error={error?.fieldMessage("/icon")}
        />
      </SettingsForm>
    </Card>
  );
}

function DangerZone({ project, app }: { project: string; app: AppRecord }) {
  const navigate = useNavigate();
  return (
    <DangerZoneCard
      kind="app"
      record={app}
      meta="Its keys stop working and new records for it are refused."
      consequences={[
        "The app, its environments and its endpoint catalogue are deleted.",
        "Its app keys are revoked at once; records naming it are refused.",
        "Recorded requests and logs stay until retention removes them.",
      ]}
      remove={() => appsApi.remove(project, app.slug)}
      cached={{ item: keys.app(project, app.slug), list: keys.apps(project), alsoStale: [keys.projects] }}
      leave={() => navigate({ to: "/projects/$project/settings/apps", params: { project } })}
    />
  );
}
