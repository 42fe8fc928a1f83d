// "/" focuses the page's search (or its first text filter), as in most dashboards; typed "/"
// inside a field stays a character.
import { useEffect } from "react";

const TYPING = "input, textarea, select, [contenteditable='true'], [contenteditable='']";

export function useSlashToSearch(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target;
      if (target instanceof Element && target.closest(TYPING) !== null) return;
      const main = document.getElementById("main");
      const field =
        main?.querySelector<HTMLInputElement>('input[type="search"]') ??
        main?.querySelector<HTMLInputElement>('input[type="text"]');
      if (field === null || field === undefined) return;
      event.preventDefault();
      field.focus();
      field.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
