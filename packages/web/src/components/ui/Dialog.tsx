// Modal dialogs on Radix (focus trap, Escape, focus returned to the trigger), and the
// confirmation dialog every destructive action goes through, optionally typed to confirm.
import * as RadixDialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { Button, IconButton } from "./Button";
import { SecretValue } from "./Code";
import styles from "./Dialog.module.css";
import { TextField } from "./Field";
import { FailureNotice } from "./Feedback";

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** Makes the body a form: Enter submits. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const inner = (
    <>
      <div className={styles.body}>{children}</div>
      {footer ? <div className={styles.footer}>{footer}</div> : null}
    </>
  );
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content
          className={styles.content}
          // Without a description Radix wants an explicit "none".
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className={styles.header}>
            <div>
              <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
              {description ? (
                <RadixDialog.Description className={styles.description}>
                  {description}
                </RadixDialog.Description>
              ) : null}
            </div>
            <RadixDialog.Close asChild>
              <IconButton label="Close" icon={X} iconSize={16} />
            </RadixDialog.Close>
          </div>
          {onSubmit ? (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                onSubmit(event);
              }}
            >
              {inner}
            </form>
          ) : (
            inner
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** What will happen, one line each. */
  consequences?: readonly ReactNode[];
  /** When set, the person must type this exact text to enable the button. */
  confirmText?: string;
  confirmLabel: string;
  busy?: boolean;
  error?: unknown;
  onConfirm: () => void;
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  consequences,
  confirmText,
  confirmLabel,
  busy = false,
  error,
  onConfirm,
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState("");
  const ready = confirmText === undefined || typed === confirmText;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setTyped("");
        onOpenChange(next);
      }}
      title={title}
      description={description}
      onSubmit={() => {
        if (ready && !busy) onConfirm();
      }}
      footer={
        <DialogActions onCancel={() => onOpenChange(false)} variant="danger" disabled={!ready} busy={busy}>
          {confirmLabel}
        </DialogActions>
      }
    >
      {consequences && consequences.length > 0 ? (
        <ul className={styles.consequences}>
          {consequences.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      ) : null}
      {confirmText !== undefined ? (
        <TextField
          label={
            <>
              Type <strong>{confirmText}</strong> to confirm
            </>
          }
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          autoFocus
        />
      ) : null}
      <FailureNotice error={error} />
    </Dialog>
  );
}

/** The pending-or-failed state of a mutation, as ConfirmOn needs it. */
/** A dialog form's footer: what else it offers (`extra`), Cancel, and the submit button. */
export function DialogActions({
  onCancel,
  busy,
  disabled,
  variant = "primary",
  form,
  extra,
  children,
}: {
  onCancel: () => void;
  busy: boolean;
  disabled?: boolean;
  variant?: "primary" | "danger";
  /** The form's id, when the form is not the dialog's own. */
  form?: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      {extra}
      <Button onClick={onCancel}>Cancel</Button>
      <Button type="submit" form={form} variant={variant} disabled={disabled} busy={busy}>
        {children}
      </Button>
    </>
  );
}

export interface ConfirmableMutation<T> {
  readonly isPending: boolean;
  readonly error: unknown;
  reset(): void;
  mutate(target: T): void;
}

/**
 * A ConfirmDialog over one action with nothing to choose (delete this app): `show()` opens it,
 * `hide()` closes it; spread `dialog` on the ConfirmDialog. Cancel, Escape and closing forget
 * the last failure.
 */
export function useConfirmation(mutation: ConfirmableMutation<void>) {
  const [open, setOpen] = useState(false);
  return {
    show: () => setOpen(true),
    /** Closes it without forgetting anything (the action succeeded). */
    hide: () => setOpen(false),
    dialog: {
      open,
      onOpenChange: (next: boolean) => {
        setOpen(next);
        if (!next) mutation.reset();
      },
      busy: mutation.isPending,
      error: mutation.error,
      onConfirm: () => mutation.mutate(),
    },
  };
}

/**
 * Confirms an action on one item (the row whose delete button was pressed): open while there is
 * a target; Cancel, Escape and closing forget the target and the last failure.
 */
export function ConfirmOn<T>({
  target,
  onClose,
  mutation,
  title,
  description,
  confirmLabel,
}: {
  target: T | null;
  onClose: () => void;
  mutation: ConfirmableMutation<T>;
  title: (target: T) => ReactNode;
  description?: (target: T) => ReactNode;
  confirmLabel: string;
}) {
  return (
    <ConfirmDialog
      open={target !== null}
      onOpenChange={(open) => {
        if (!open) {
          onClose();
          mutation.reset();
        }
      }}
      title={target === null ? "" : title(target)}
      description={target === null || description === undefined ? undefined : description(target)}
      confirmLabel={confirmLabel}
      busy={mutation.isPending}
      error={mutation.error}
      onConfirm={() => {
        if (target !== null) mutation.mutate(target);
      }}
    />
  );
}

/** The dialog that shows a just-created secret (an API key, an access token) the one time it is
 *  shown, with copy; closing it forgets the secret. */
export function SecretShownOnceDialog({
  open,
  onOpenChange,
  what,
  name,
  secret,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** "API key", "access token". */
  what: string;
  name: string;
  secret: string;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Your new ${what}`}
      description={`Copy it now. This is the only time Sightline shows the whole ${what.split(" ").at(-1) ?? what}; it stores only a hash.`}
      footer={
        <Button variant="primary" onClick={() => onOpenChange(false)}>
          I've stored it
        </Button>
      }
    >
      <SecretValue value={secret} label={`${what[0]?.toUpperCase() ?? ""}${what.slice(1)} ${name}`} />
    </Dialog>
  );
}
