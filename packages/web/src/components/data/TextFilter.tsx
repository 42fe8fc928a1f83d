// A text filter of a filter bar, applied as the person types: the URL follows the field after a
// short pause (each change is a query against the events store), replacing the history entry so
// Back does not replay every keystroke; Enter applies at once. The one behaviour of every bar.
import { useEffect, useRef, useState } from "react";
import styles from "./Data.module.css";

/** How long typing must pause before the filter applies. */
export const FILTER_DEBOUNCE_MS = 300;

const normalise = (text: string) => (text.trim() === "" ? undefined : text.trim());

export function TextFilter({
  label,
  value,
  onCommit,
  placeholder,
  type = "text",
  width,
}: {
  label: string;
  value: string | undefined;
  /** Applies a value; `replace` while typing, a history entry on Enter. */
  onCommit: (value: string | undefined, options: { replace: boolean }) => void;
  placeholder?: string;
  type?: "text" | "search" | "number";
  width?: string;
}) {
  const [draft, setDraft] = useState(value ?? "");
  const [seen, setSeen] = useState(value);
  // A back/forward navigation changes the URL under the field: follow it, unless the URL only
  // caught up with what is typed (keeping a trailing blank the person is still typing).
  if (seen !== value) {
    setSeen(value);
    if (normalise(draft) !== value) setDraft(value ?? "");
  }
  const commit = (text: string, replace: boolean) => {
    const next = normalise(text);
    if (next !== value) onCommit(next, { replace });
  };
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <label className={styles.filter}>
      <span>{label}</span>
      <input
        type={type}
        value={draft}
        placeholder={placeholder}
        size={width === undefined ? undefined : Number(width)}
        min={type === "number" ? 0 : undefined}
        onChange={(event) => {
          const text = event.target.value;
          setDraft(text);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => commit(text, true), FILTER_DEBOUNCE_MS);
        }}
        onKeyDown={(event) => {
          if (event.key !== "Enter") return;
          clearTimeout(timer.current);
          commit(draft, false);
        }}
      />
    </label>
  );
}
