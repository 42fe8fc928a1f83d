// The colour theme: "system" follows the OS (no attribute), "light"/"dark" pin it via
// data-theme on <html> and localStorage (public/theme-init.js re-applies it before paint).
export type ThemeChoice = "system" | "light" | "dark";

const STORAGE_KEY = "sightline.theme";

export function readThemeChoice(): ThemeChoice {
  try {
    const saved = window.localStorage.getItem(STORAGE_KEY);
    return saved === "light" || saved === "dark" ? saved : "system";
  } catch {
    return "system";
  }
}

export function applyThemeChoice(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", choice);
  try {
    if (choice === "system") window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // Without storage the choice lasts for this page only.
  }
}
