// A filter bar's fields bound to one URL key each: text (applied as you type), a number, or a
// choice. Each change goes back to page 1. What most pages need is one line per filter.
import { Options } from "../ui/Field";
import type { TrafficSearch } from "../../lib/filters";
import { useSetSearch, useTrafficSearch } from "../../lib/page-state";
import styles from "./Data.module.css";
import { TextFilter } from "./TextFilter";

/** The URL keys that hold free text. */
type TextKey = "q" | "codes" | "route" | "path" | "logger" | "trace" | "consumer";
/** The URL keys that hold a number. */
type NumberKey = "min_ms" | "max_ms";
/** The URL keys a choice sets. */
type ChoiceKey = "method" | "status" | "levels";

export function UrlTextFilter({
  param,
  label,
  placeholder,
  width,
  type = "text",
}: {
  param: TextKey;
  label: string;
  placeholder?: string;
  width?: string;
  type?: "text" | "search";
}) {
  const search = useTrafficSearch();
  const setSearch = useSetSearch();
  return (
    <TextFilter
      label={label}
      type={type}
      value={search[param]}
      placeholder={placeholder}
      width={width}
      onCommit={(value, options) => setSearch({ [param]: value, page: undefined }, options)}
    />
  );
}

export function UrlNumberFilter({
  param,
  label,
  width = "6",
}: {
  param: NumberKey;
  label: string;
  width?: string;
}) {
  const search = useTrafficSearch();
  const setSearch = useSetSearch();
  return (
    <TextFilter
      label={label}
      type="number"
      width={width}
      value={search[param]?.toString()}
      onCommit={(value, options) =>
        setSearch({ [param]: value === undefined ? undefined : Number(value), page: undefined }, options)
      }
    />
  );
}

export interface Choice {
  readonly value: string;
  readonly label?: string;
}

export function UrlChoiceFilter({
  param,
  label,
  choices,
  anyLabel = "Any",
}: {
  param: ChoiceKey;
  label: string;
  choices: readonly (string | Choice)[];
  /** The first choice, which clears the filter. */
  anyLabel?: string;
}) {
  const search: TrafficSearch = useTrafficSearch();
  const setSearch = useSetSearch();
  const value = search[param];
  const options = choices.map((choice) => (typeof choice === "string" ? { value: choice } : choice));
  return (
    <label className={styles.filter}>
      <span>{label}</span>
      <select
        value={value ?? ""}
        onChange={(event) => setSearch({ [param]: event.target.value || undefined, page: undefined })}
      >
        <option value="">{anyLabel}</option>
        <Options
          items={options}
          value={(option) => option.value}
          label={(option) => option.label ?? option.value}
        />
        {/* A value from a shared link that the list does not offer stays visible. */}
        {value !== undefined && !options.some((option) => option.value === value) ? (
          <option value={value}>{value}</option>
        ) : null}
      </select>
    </label>
  );
}
