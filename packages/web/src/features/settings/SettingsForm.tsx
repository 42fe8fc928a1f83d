// A settings card's form: one fieldset, disabled for those who may only read it (they still see
// every value), the server's refusal under the fields, and the save button for those who may
// change it.
import type { FormEvent, ReactNode } from "react";
import { FailureNotice } from "../../components/ui/Feedback";
import { Stack, SubmitRow } from "../../components/ui/Surface";
import styles from "./Settings.module.css";

export function SettingsForm({
  onSubmit,
  canEdit,
  save,
  disabled,
  saveLabel = "Save changes",
  readOnly,
  children,
}: {
  onSubmit: () => void;
  canEdit: boolean;
  /** The save's state: its refusal shows under the fields, and the button waits while pending. */
  save: { readonly error: unknown; readonly isPending: boolean };
  disabled: boolean;
  saveLabel?: string;
  /** Said instead of the button to those who may only read. */
  readOnly?: ReactNode;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form onSubmit={submit}>
      <fieldset className={styles.fieldset} disabled={!canEdit}>
        <Stack>
          {children}
          <FailureNotice error={save.error} fieldsInline />
          {canEdit ? (
            <SubmitRow busy={save.isPending} disabled={disabled}>
              {saveLabel}
            </SubmitRow>
          ) : (
            (readOnly ?? null)
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
