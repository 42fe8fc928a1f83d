// The app and environment pickers of a scope, each loading its own list: the environments are
// those of the chosen app, and the picker is disabled until an app is chosen.
import { useQuery } from "@tanstack/react-query";
import { appsQuery, environmentsQuery } from "../../lib/queries";
import { SelectField, type SelectFieldProps, Options } from "../ui/Field";

type PickerProps = Omit<SelectFieldProps, "label" | "children"> & {
  project: string;
  /** The first option, whose value is "" (e.g. "Whole project"). */
  anyLabel: string;
};

export function AppSelect({ project, anyLabel, ...select }: PickerProps) {
  const apps = useQuery(appsQuery(project));
  return (
    <SelectField label="App" {...select}>
      <option value="">{anyLabel}</option>
      <Options items={apps.data ?? []} value={(app) => app.slug} label={(app) => app.name} />
    </SelectField>
  );
}

export function EnvironmentSelect({ project, app, anyLabel, ...select }: PickerProps & { app: string }) {
  const environments = useQuery({ ...environmentsQuery(project, app), enabled: app !== "" });
  return (
    <SelectField label="Environment" disabled={app === ""} {...select}>
      <option value="">{anyLabel}</option>
      <Options
        items={environments.data ?? []}
        value={(environment) => environment.name}
        label={(environment) => environment.name}
      />
    </SelectField>
  );
}
