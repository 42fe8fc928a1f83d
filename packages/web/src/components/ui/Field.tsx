// Labelled form controls: every input has a visible label, an optional hint, and the server's
// message for that field shown under it (and announced: aria-describedby, aria-invalid).
import {
  forwardRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from "react";
import styles from "./Field.module.css";

interface FieldFrame {
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  readonly error?: string | undefined;
  readonly optional?: boolean;
}

function Frame({
  id,
  label,
  hint,
  error,
  optional,
  children,
}: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
        {optional ? <span className={styles.optional}> (optional)</span> : null}
      </label>
      {children}
      {error ? (
        <span className={styles.error} id={`${id}-error`}>
          {error}
        </span>
      ) : hint ? (
        <span className={styles.hint} id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}

function describedBy(id: string, { hint, error }: FieldFrame): string | undefined {
  if (error) return `${id}-error`;
  return hint ? `${id}-hint` : undefined;
}

/** What the control inside a frame carries: its id, and its state for assistive technology. */
interface ControlProps {
  readonly id: string;
  readonly "aria-invalid": true | undefined;
  readonly "aria-describedby": string | undefined;
}

/** The frame around one control, which it links to its label, hint and error (a given id, or one of its own). */
function Labelled({
  frame,
  id: givenId,
  children,
}: {
  frame: FieldFrame;
  id: string | undefined;
  children: (control: ControlProps) => ReactNode;
}) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <Frame id={id} {...frame}>
      {children({
        id,
        "aria-invalid": frame.error ? true : undefined,
        "aria-describedby": describedBy(id, frame),
      })}
    </Frame>
  );
}

export type TextFieldProps = FieldFrame & InputHTMLAttributes<HTMLInputElement>;

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, hint, error, optional, id, className, ...input },
  ref,
) {
  return (
    <Labelled frame={{ label, hint, error, optional }} id={id}>
      {(control) => (
        <input
          ref={ref}
          {...control}
          className={[styles.control, className].filter(Boolean).join(" ")}
          {...input}
        />
      )}
    </Labelled>
  );
});

/** A whole number (a count, seconds, a status code): the number input and keyboard, in steps of 1. */
export function CountField(props: Omit<TextFieldProps, "type" | "step" | "inputMode">) {
  return <TextField type="number" inputMode="numeric" step={1} {...props} />;
}

/** A password, typed hidden and required; `autoComplete` tells password managers which one it is. */
export function PasswordField(
  props: Omit<TextFieldProps, "type" | "required" | "autoComplete"> & {
    autoComplete: "current-password" | "new-password";
  },
) {
  return <TextField type="password" required {...props} />;
}

export type TextAreaFieldProps = FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement>;

export function TextAreaField({ label, hint, error, optional, id, ...input }: TextAreaFieldProps) {
  return (
    <Labelled frame={{ label, hint, error, optional }} id={id}>
      {(control) => <textarea {...control} className={styles.control} {...input} />}
    </Labelled>
  );
}

export type SelectFieldProps = FieldFrame & SelectHTMLAttributes<HTMLSelectElement>;

export function SelectField({ label, hint, error, optional, id, children, ...select }: SelectFieldProps) {
  return (
    <Labelled frame={{ label, hint, error, optional }} id={id}>
      {(control) => (
        <select {...control} className={styles.control} {...select}>
          {children}
        </select>
      )}
    </Labelled>
  );
}

/** A select's options from a list: each item's value and what it reads. */
export function Options<T>({
  items,
  value,
  label,
}: {
  items: readonly T[];
  value: (item: T) => string | number;
  label: (item: T) => ReactNode;
}) {
  return (
    <>
      {items.map((item) => (
        <option key={value(item)} value={value(item)}>
          {label(item)}
        </option>
      ))}
    </>
  );
}

export function Checkbox({ label, ...input }: { label: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className={styles.check}>
      <input type="checkbox" {...input} />
      {label}
    </label>
  );
}
