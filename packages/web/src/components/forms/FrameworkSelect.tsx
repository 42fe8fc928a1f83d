// The framework an app declares, picked from the server's list with display names.
import type { Framework } from "@sightline/contracts";
import { FRAMEWORK_OPTIONS } from "../../lib/frameworks";
import { Options, SelectField, type SelectFieldProps } from "../ui/Field";

export function FrameworkSelect({
  value,
  onFramework,
  ...select
}: Omit<SelectFieldProps, "label" | "value" | "onChange" | "children"> & {
  value: string;
  onFramework: (framework: Framework) => void;
}) {
  return (
    <SelectField
      label="Framework"
      value={value}
      onChange={(event) =>
        onFramework(FRAMEWORK_OPTIONS.find((option) => option.value === event.target.value)?.value ?? "other")
      }
      {...select}
    >
      <Options items={FRAMEWORK_OPTIONS} value={(option) => option.value} label={(option) => option.label} />
    </SelectField>
  );
}
