// The layout of long editors (alert rules, SLOs, uptime checks): the page around the form, the
// form, its sections, fieldsets with a legend, rows of fields that wrap, groups of checkboxes,
// and what shows under a refused form.
import type { FormEvent, ReactNode } from "react";
import { isApiError } from "../../lib/api-client";
import { FailureNotice, Notice, ReadOnlyNotice } from "../ui/Feedback";
import { Page, PageHeader, SubmitRow } from "../ui/Surface";
import styles from "./Form.module.css";

/**
 * A page that is one editor: its heading, why a reader cannot save, the form's cards, the
 * refusal under them, and the submit button (with `cancel`, a way back, before it).
 */
export function EditorPage({
  title,
  description,
  canWrite,
  readOnly,
  save,
  submitLabel,
  cancel,
  children,
}: {
  title: string;
  description: ReactNode;
  canWrite: boolean;
  /** Shown to those who may not write, e.g. who may. */
  readOnly: ReactNode;
  save: { mutate: () => void; error: unknown; isPending: boolean };
  submitLabel: ReactNode;
  cancel?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Page>
      <PageHeader title={title} description={description} />
      <ReadOnlyNotice canWrite={canWrite}>{readOnly}</ReadOnlyNotice>
      <EditorForm onSubmit={() => save.mutate()}>
        {children}
        <FormProblems error={save.error} />
        <SubmitRow busy={save.isPending} disabled={!canWrite} cancel={cancel}>
          {submitLabel}
        </SubmitRow>
      </EditorForm>
    </Page>
  );
}

/** The form itself: validation is the server's (noValidate), its messages show by the fields. */
export function EditorForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className={styles.editor} onSubmit={submit} noValidate>
      {children}
    </form>
  );
}

export function Sections({ children }: { children: ReactNode }) {
  return <div className={styles.sections}>{children}</div>;
}

export function FieldRow({ children }: { children: ReactNode }) {
  return <div className={styles.fieldRow}>{children}</div>;
}

/** A fieldset; `minor` for one nested in another, its legend in the quieter style. */
export function FieldGroup({
  legend,
  minor = false,
  children,
}: {
  legend: ReactNode;
  minor?: boolean;
  children: ReactNode;
}) {
  return (
    <fieldset className={styles.fieldset}>
      <legend className={minor ? styles.minor : styles.legend}>{legend}</legend>
      {children}
    </fieldset>
  );
}

/** Checkboxes one under another, or (`wrap`) side by side as space allows. */
export function Checks({ wrap = false, children }: { wrap?: boolean; children: ReactNode }) {
  return (
    <div className={[styles.checks, wrap ? styles.checksWrap : ""].filter(Boolean).join(" ")}>{children}</div>
  );
}

/** A quiet line inside a form, e.g. why a group has nothing to pick. */
export function FormNote({ children }: { children: ReactNode }) {
  return <p className={styles.note}>{children}</p>;
}

/**
 * Under a refused form: the server's message when it named no field, else a pointer to the
 * fields, which show their own messages.
 */
export function FormProblems({ error }: { error: unknown }) {
  return (
    <>
      <FailureNotice error={error} fieldsInline />
      {isApiError(error) && error.fieldErrors.length > 0 ? (
        <Notice tone="danger" role="alert">
          Check the fields marked above.
        </Notice>
      ) : null}
    </>
  );
}
