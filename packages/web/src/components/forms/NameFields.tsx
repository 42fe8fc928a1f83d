// The name and description of named things (projects, apps, API keys, access tokens): one set of
// limits, kept to the server's, and the server's message for each under it.
import { TextAreaField, TextField } from "../ui/Field";

/** The hint under the name of a credential. */
export const WHERE_USED = "Say where it is used, so you know what breaks if you revoke it.";

interface TextProps {
  value: string;
  onValue: (value: string) => void;
  /** The server's message for this field, from the refused save. */
  error: string | undefined;
  placeholder?: string;
}

export function NameField({
  label,
  value,
  onValue,
  error,
  autoFocus,
  ...rest
}: TextProps & { label: string; hint?: string; autoFocus?: boolean }) {
  return (
    <TextField
      label={label}
      value={value}
      onChange={(event) => onValue(event.target.value)}
      required
      maxLength={100}
      autoFocus={autoFocus}
      error={error}
      {...rest}
    />
  );
}

export function DescriptionField({ value, onValue, error, placeholder }: TextProps) {
  return (
    <TextAreaField
      label="Description"
      optional
      value={value}
      onChange={(event) => onValue(event.target.value)}
      maxLength={2000}
      placeholder={placeholder}
      error={error}
    />
  );
}
