// The consumer filter: a combobox that searches the project's consumers by name, id or group in
// the page's window (the consumers list route, debounced) and sets the URL's `consumer` to the
// picked one's id, so "Acme Corp" finds Acme's requests. Enter on free text takes it as an id.
import type { ProjectAnalyticsQuery, ProjectConsumerStats } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useDebounced } from "../../lib/use-debounced";
import { useProjectSlug } from "../../lib/page-state";
import { trafficApi } from "../../lib/traffic-api";
import styles from "./Data.module.css";
import { FILTER_DEBOUNCE_MS } from "./TextFilter";

const SUGGESTIONS = 8;

/** "Acme Corp (acme)", or the id alone when the consumer has no other name. */
const labelOf = (consumer: Pick<ProjectConsumerStats, "consumer" | "consumer_id">) =>
  consumer.consumer !== consumer.consumer_id
    ? `${consumer.consumer} (${consumer.consumer_id})`
    : consumer.consumer_id;

export function ConsumerPicker({
  value,
  onPick,
  window,
}: {
  /** The picked consumer's id (the URL's `consumer`). */
  value: string | undefined;
  onPick: (id: string | undefined) => void;
  /** The page's window and app/environment filters: suggestions are consumers seen there. */
  window: ProjectAnalyticsQuery;
}) {
  const project = useProjectSlug();
  const listId = useId();
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const text = draft ?? "";
  const searched = useDebounced(text.trim(), FILTER_DEBOUNCE_MS);
  const base = { ...window, sort_by: "total_requests" as const, page_size: SUGGESTIONS };
  const suggestions = useQuery({
    ...trafficApi.consumers(project, { ...base, q: searched || undefined }),
    enabled: open,
  });
  // The picked id's name, for the field's text when it is not being edited.
  const picked = useQuery({
    ...trafficApi.consumers(project, { ...base, q: value }),
    enabled: value !== undefined && draft === undefined,
  });
  const pickedRow = picked.data?.items.find((row) => row.consumer_id === value);
  // Suggestions for other text than the field's (still debouncing, or loading) are not offered:
  // Enter must never pick a consumer the person did not see.
  const current = searched === text.trim() && !suggestions.isPlaceholderData;
  const options = (current ? (suggestions.data?.items ?? []) : []).filter((row) => row.consumer_id !== "");
  const shown = draft ?? (value === undefined ? "" : pickedRow ? labelOf(pickedRow) : value);
  const expanded = open && draft !== undefined && options.length > 0;

  const pick = (id: string | undefined) => {
    setDraft(undefined);
    setOpen(false);
    if (id !== value) onPick(id);
  };

  return (
    <div className={[styles.filter, styles.picker].join(" ")}>
      <label htmlFor={`${listId}-input`}>Consumer</label>
      <input
        id={`${listId}-input`}
        role="combobox"
        aria-expanded={expanded}
        aria-controls={`${listId}-list`}
        aria-autocomplete="list"
        aria-activedescendant={expanded ? `${listId}-${active}` : undefined}
        value={shown}
        size={16}
        placeholder="Name or id"
        autoComplete="off"
        onFocus={() => setOpen(true)}
        onChange={(event) => {
          setDraft(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onBlur={() => {
          // Leaving an emptied field clears the filter; other unfinished text is dropped.
          if (draft !== undefined && draft.trim() === "") pick(undefined);
          setDraft(undefined);
          setOpen(false);
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setOpen(true);
            if (options.length > 0) {
              const step = event.key === "ArrowDown" ? 1 : -1;
              setActive((active + step + options.length) % options.length);
            }
          } else if (event.key === "Enter") {
            event.preventDefault();
            if (draft === undefined) return;
            const option = expanded ? options[active] : undefined;
            pick(option ? option.consumer_id : draft.trim() || undefined);
          } else if (event.key === "Escape") {
            setDraft(undefined);
            setOpen(false);
          }
        }}
      />
      {expanded ? (
        <ul id={`${listId}-list`} role="listbox" aria-label="Consumers" className={styles.options}>
          {options.map((row, index) => (
            <li
              key={row.consumer_id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={styles.option}
              // Before the field's blur, so the pick lands.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(row.consumer_id);
              }}
            >
              <span>{row.consumer}</span>
              {row.consumer !== row.consumer_id ? (
                <span className={styles.optionId}>{row.consumer_id}</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
