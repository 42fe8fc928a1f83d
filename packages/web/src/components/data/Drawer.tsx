// A side drawer for one record (request, log) on Radix dialog: focus trapped, Escape closes,
// focus returns to the row that opened it (found again by `returnFocus`: the table may have
// re-rendered under it), and j/k step to the next or previous record. The record's id lives in
// the URL.
import * as RadixDialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { KeyboardEvent, ReactNode } from "react";
import { IconButton } from "../ui/Button";
import styles from "./Drawer.module.css";

export function Drawer({
  open,
  onClose,
  title,
  children,
  returnFocus,
  onStep,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** The element focus goes back to on close (the row of the record shown last). */
  returnFocus?: () => HTMLElement | null;
  /** j/k: show the next (1) or previous (-1) record of the list behind. */
  onStep?: (delta: 1 | -1) => void;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (onStep === undefined || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key !== "j" && event.key !== "k") return;
    const target = event.target;
    if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]") !== null)
      return;
    event.preventDefault();
    onStep(event.key === "j" ? 1 : -1);
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content
          className={styles.drawer}
          aria-describedby={undefined}
          onKeyDown={onKeyDown}
          onCloseAutoFocus={(event) => {
            const target = returnFocus?.();
            if (target === null || target === undefined) return;
            event.preventDefault();
            target.focus();
          }}
        >
          <div className={styles.header}>
            <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
            <RadixDialog.Close asChild>
              <IconButton label="Close" icon={X} iconSize={16} />
            </RadixDialog.Close>
          </div>
          <div className={styles.body}>{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
