// Buttons in five variants; `buttonClass` styles a router Link the same way; the small
// icon-only buttons of table rows and dialog headers.
import type { LucideIcon } from "lucide-react";
import { type ButtonHTMLAttributes, forwardRef } from "react";
import styles from "./Button.module.css";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger" | "dangerOutline";

export interface ButtonStyle {
  readonly variant?: ButtonVariant;
  readonly size?: "sm" | "md";
  /** A square button holding only an icon (give it an aria-label). */
  readonly iconOnly?: boolean;
}

export function buttonClass({
  variant = "secondary",
  size = "md",
  iconOnly = false,
}: ButtonStyle = {}): string {
  return [styles.button, styles[variant], size === "sm" ? styles.sm : "", iconOnly ? styles.icon : ""]
    .filter(Boolean)
    .join(" ");
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, ButtonStyle {
  /** Shows a spinner and blocks clicks while an action runs. */
  readonly busy?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, iconOnly, busy = false, className, children, disabled, type = "button", ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={[buttonClass({ variant, size, iconOnly }), className].filter(Boolean).join(" ")}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <span className={styles.spinner} aria-hidden="true" /> : null}
      {children}
    </button>
  );
});

/** A small icon-only action (a row's delete, a dialog's close), named for screen readers by `label`. */
export const IconButton = forwardRef<
  HTMLButtonElement,
  Omit<ButtonProps, "iconOnly" | "size" | "children" | "aria-label"> & {
    label: string;
    icon: LucideIcon;
    iconSize?: number;
  }
>(function IconButton({ label, icon: Icon, iconSize = 15, variant = "ghost", ...rest }, ref) {
  return (
    <Button ref={ref} size="sm" variant={variant} iconOnly aria-label={label} {...rest}>
      <Icon size={iconSize} aria-hidden="true" />
    </Button>
  );
});
