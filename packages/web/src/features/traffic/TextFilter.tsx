// A text filter that writes to the URL when the person presses Enter or leaves the field, not
// on every keystroke (each change is a query against the events store).
import { useState } from "react";
import styles from "./Traffic.module.css";

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
  onCommit: (value: string | undefined) => void;
  placeholder?: string;
  type?: "text" | "search" | "number";
  width?: string;
}) {
  const [draft, setDraft] = useState(value ?? "");
  const [seen, setSeen] = useState(value);
  // A back/forward navigation changes the URL under the field: follow it.
  if (seen !== value) {
    setSeen(value);
    setDraft(value ?? "");
  }
  const commit = () => {
    const next = draft.trim() === "" ? undefined : draft.trim();
    if (next !== value) onCommit(next);
  };
  return (
    <label className={styles.filter}>
      <span>{label}</span>
      <input
        type={type}
        value={draft}
        placeholder={placeholder}
        size={width === undefined ? undefined : Number(width)}
        min={type === "number" ? 0 : undefined}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === "Enter") commit();
        }}
      />
    </label>
  );
}
