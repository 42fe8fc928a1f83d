// The app and environment pickers of a scope, each loading its own list: the environments are
// those of the chosen app, and the picker is disabled until an app is chosen; and the pair as an
// editor's scope shows it (the whole project and all environments by default).
import { useQuery } from "@tanstack/react-query";
import { appsQuery, environmentsQuery } from "../../lib/queries";
import { SelectField, type SelectFieldProps, Options } from "../ui/Field";

type PickerProps = Omit<SelectFieldProps, "label" | "children"> & {
  project: string;
  /** The first option, whose value is "" (e.g. "Whole project"); without it one must be picked. */
  anyLabel?: string;
};

export function AppSelect({ project, anyLabel, ...select }: PickerProps) {
  const apps = useQuery(appsQuery(project));
  return (
    <SelectField label="App" {...select}>
      {anyLabel === undefined ? null : <option value="">{anyLabel}</option>}
      <Options items={apps.data ?? []} value={(app) => app.slug} label={(app) => app.name} />
    </SelectField>
  );
}

export function EnvironmentSelect({ project, app, anyLabel, ...select }: PickerProps & { app: string }) {
  const environments = useQuery({ ...environmentsQuery(project, app), enabled: app !== "" });
  return (
    <SelectField label="Environment" disabled={app === ""} {...select}>
      {anyLabel === undefined ? null : <option value="">{anyLabel}</option>}
      <Options
        items={environments.data ?? []}
        value={(environment) => environment.name}
        label={(environment) => environment.name}
      />
    </SelectField>
  );
}

/** The app and environment of an editor's scope, each with the server's message for it. */
export function ScopeAppEnvironment({
  project,
  app,
  environment,
  onApp,
  onEnvironment,
  fieldError,
}: {
  project: string;
  app: string;
  environment: string;
  onApp: (app: string) => void;
  onEnvironment: (environment: string) => void;
  fieldError: (pointer: string) => string | undefined;
}) {
  return (
    <>
      <AppSelect
        project={project}
        anyLabel="Whole project"
        value={app}
        onChange={(event) => onApp(event.target.value)}
        error={fieldError("/scope/app") ?? fieldError("/scope")}
      />
      <EnvironmentSelect
        project={project}
        app={app}
        anyLabel="All environments"
        value={environment}
        onChange={(event) => onEnvironment(event.target.value)}
        error={fieldError("/scope/environment")}
      />
    </>
  );
}
