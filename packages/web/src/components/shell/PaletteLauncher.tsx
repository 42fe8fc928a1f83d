// Opens the command palette from the top bar or with Ctrl-K / ⌘K anywhere. The palette's code
// is a chunk of its own, fetched on first use, so the initial bundle does not carry it.
import { Search } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Button } from "../ui/Button";
import styles from "./Shell.module.css";

const CommandPalette = lazy(() => import("./CommandPalette"));

export function PaletteLauncher() {
  const [open, setOpen] = useState(false);
  // Where focus was when the palette opened: it goes back there on close (the dialog has no
  // Radix trigger to return to).
  const returnTo = useRef<HTMLElement | null>(null);
  const show = () => {
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => returnTo.current?.focus());
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== "k") return;
      event.preventDefault();
      if (document.querySelector("[data-command-palette]") === null) {
        returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        setOpen(true);
      } else {
        setOpen(false);
        requestAnimationFrame(() => returnTo.current?.focus());
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <>
      <Button variant="ghost" size="sm" onClick={show} aria-keyshortcuts="Control+K Meta+K">
        <Search size={16} aria-hidden="true" />
        <span className={styles.actionLabel}>Go to…</span>
        <kbd className={styles.paletteKey}>Ctrl K</kbd>
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <CommandPalette onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
