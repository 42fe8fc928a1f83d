// Creating a credential (an API key, an access token): its name and any other fields → create →
// the whole secret, once, with copy; closing forgets it and empties the form.
import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { isApiError } from "../../lib/api-client";
import { Dialog, DialogActions, SecretShownOnceDialog } from "../ui/Dialog";
import { Notice } from "../ui/Feedback";
import { NameField, WHERE_USED } from "./NameFields";

export function CreateSecretDialog<Created extends { readonly name: string }>({
  open,
  onOpenChange,
  what,
  title,
  description,
  nameLabel,
  placeholder,
  submitLabel,
  defaultName = "",
  create,
  secretOf,
  onCreated,
  onReset,
  ready = true,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** "API key", "access token". */
  what: string;
  title: string;
  description: string;
  nameLabel: string;
  placeholder: string;
  submitLabel: string;
  defaultName?: string;
  create: (name: string) => Promise<Created>;
  secretOf: (created: Created) => string;
  onCreated?: () => void;
  /** Empties the caller's own fields when the dialog closes. */
  onReset?: () => void;
  /** Whether the caller's own fields allow creating. */
  ready?: boolean;
  /** Fields beside the name. */
  children?: ReactNode;
}) {
  const [name, setName] = useState(defaultName);
  const mutation = useMutation({ mutationFn: (chosen: string) => create(chosen), onSuccess: onCreated });
  const close = (next: boolean) => {
    if (!next) {
      mutation.reset();
      setName(defaultName);
      onReset?.();
    }
    onOpenChange(next);
  };
  const error = isApiError(mutation.error) ? mutation.error : undefined;
  if (mutation.data) {
    return (
      <SecretShownOnceDialog
        open={open}
        onOpenChange={close}
        what={what}
        name={mutation.data.name}
        secret={secretOf(mutation.data)}
      />
    );
  }
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={title}
      description={description}
      onSubmit={() => mutation.mutate(name.trim())}
      footer={
        <DialogActions
          onCancel={() => close(false)}
          busy={mutation.isPending}
          disabled={name.trim() === "" || !ready}
        >
          {submitLabel}
        </DialogActions>
      }
    >
      <NameField
        label={nameLabel}
        value={name}
        onValue={setName}
        placeholder={placeholder}
        autoFocus
        hint={WHERE_USED}
        error={error?.fieldMessage("/name")}
      />
      {children}
      {error && error.fieldErrors.length === 0 ? (
        <Notice tone={error.code === "limit_reached" ? "warning" : "danger"} role="alert">
          {error.detail}
        </Notice>
      ) : null}
    </Dialog>
  );
}
