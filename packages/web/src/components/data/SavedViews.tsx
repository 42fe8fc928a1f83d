// Saved views of the current page: save its filters under a name (only for oneself, or shared
// with the project), and apply or delete them. The list loads when the dialog opens, so a page
// costs no extra request until someone asks for its views.
import type { SavedView } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation, useMatches, useNavigate, useRouter } from "@tanstack/react-router";
import { Bookmark } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import { isApiError } from "../../lib/api-client";
import { useProjectSlug, useUrlSearch } from "../../lib/page-state";
import { filtersOf, savedViewsApi, viewPageOf } from "../../lib/saved-views-api";
import { Button } from "../ui/Button";
import { Dialog } from "../ui/Dialog";
import { FailureNotice, loadingOrFailed } from "../ui/Feedback";
import { NameField } from "../forms/NameFields";
import { Checkbox } from "../ui/Field";
import { useToast } from "../ui/Toast";
import styles from "./Data.module.css";

/** The filters of a view as a short line ("app web · status 5xx"), or "no filters". */
function describe(filters: Readonly<Record<string, string>>): string {
  const parts = Object.entries(filters).map(([key, value]) => `${key} ${value}`);
  return parts.length === 0 ? "no filters" : parts.join(" · ");
}

function whose(view: SavedView): string {
  if (!view.mine) return `shared by ${view.owner_email}`;
  return view.shared ? "yours, shared" : "only you";
}

export function SavedViews() {
  const project = useProjectSlug();
  const matches = useMatches();
  const page = viewPageOf(matches.at(-1)?.fullPath ?? "");
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  if (page === undefined || project === "") return null;
  // The dialog has no Radix trigger: focus goes back to the button by hand.
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => opener.current?.focus());
  };
  return (
    <>
      <Button ref={opener} size="sm" onClick={() => setOpen(true)} aria-haspopup="dialog">
        <Bookmark size={15} aria-hidden="true" />
        Views
      </Button>
      {open ? <SavedViewsDialog project={project} page={page} onClose={close} /> : null}
    </>
  );
}

function SavedViewsDialog({
  project,
  page,
  onClose,
}: {
  project: string;
  page: string;
  onClose: () => void;
}) {
  const search = useUrlSearch();
  const location = useLocation();
  const router = useRouter();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const listQuery = savedViewsApi.list(project, page);
  const views = useQuery(listQuery);
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);
  const filters = filtersOf(search);
  const refresh = () => queryClient.invalidateQueries({ queryKey: listQuery.queryKey });

  const save = useMutation({
    mutationFn: () => savedViewsApi.create(project, { page, name: name.trim(), filters, shared }),
    onSuccess: async (view) => {
      setName("");
      await refresh();
      toast(`Saved view "${view.name}"`);
    },
  });
  const remove = useMutation({
    mutationFn: (view: SavedView) => savedViewsApi.remove(project, view.id),
    onSuccess: async (_answer, view) => {
      await refresh();
      toast(`Deleted view "${view.name}"`);
    },
  });
  const apply = (view: SavedView) => {
    onClose();
    // The router's own serialisation, so the page's validator reads the values back as typed.
    void navigate({ href: `${location.pathname}${router.options.stringifySearch(view.filters)}` });
  };
  const nameError = isApiError(save.error) ? save.error.fieldMessage("/name") : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() !== "") save.mutate();
  };

  return (
    <Dialog
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title="Saved views"
      description={`Filters of this page saved under a name. Now: ${describe(filters)}.`}
    >
      <form className={styles.savedViewForm} onSubmit={submit} aria-label="Save the current filters">
        <NameField label="Name" value={name} onValue={setName} error={nameError} />
        <Checkbox
          label="Share with the project's members"
          checked={shared}
          onChange={(event) => setShared(event.target.checked)}
        />
        <Button type="submit" variant="primary" size="sm" busy={save.isPending} disabled={name.trim() === ""}>
          Save current filters
        </Button>
      </form>
      <FailureNotice error={save.error} fieldsInline />
      <FailureNotice error={remove.error} />
      <h3 className={styles.savedViewHeading}>Views of this page</h3>
      {loadingOrFailed(views, { title: "Views of this page", what: "saved views", rows: 2 }) ?? (
        <ul className={styles.savedViewList} aria-label="Saved views of this page">
          {(views.data ?? []).length === 0 ? (
            <li className={styles.savedViewEmpty}>No saved views yet.</li>
          ) : null}
          {(views.data ?? []).map((view) => (
            <li key={view.id} className={styles.savedView}>
              <div className={styles.savedViewText}>
                <span className={styles.savedViewName}>{view.name}</span>
                <span className={styles.savedViewMeta}>
                  {whose(view)} · {describe(view.filters)}
                </span>
              </div>
              <Button size="sm" onClick={() => apply(view)} aria-label={`Apply view ${view.name}`}>
                Apply
              </Button>
              {view.mine ? (
                <Button
                  size="sm"
                  variant="dangerOutline"
                  busy={remove.isPending && remove.variables?.id === view.id}
                  onClick={() => remove.mutate(view)}
                  aria-label={`Delete view ${view.name}`}
                >
                  Delete
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
