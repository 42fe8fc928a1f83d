// Where to go after a sign-in that finishes in another tab: the e-mailed link opens a new one,
// which knows nothing of the page that asked for it (an invitation link, say). Kept in
// localStorage for as long as a sign-in link lives, validated again when read, read once.
import { safeNext } from "./search";

const KEY = "sightline.return-to";
/** A sign-in link's lifetime: a later sign-in is not this one's continuation. */
const TTL_MS = 15 * 60_000;

export function rememberReturnTo(next: string): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify({ next, at: Date.now() }));
  } catch {
    // Storage off (private mode): the person lands on their projects instead.
  }
}

export function takeReturnTo(now = Date.now()): string | undefined {
  try {
    const raw = window.localStorage.getItem(KEY);
    window.localStorage.removeItem(KEY);
    if (raw === null) return undefined;
    const saved = JSON.parse(raw) as { next?: unknown; at?: unknown };
    if (typeof saved.at !== "number" || now - saved.at > TTL_MS || saved.at > now) return undefined;
    return safeNext(saved.next);
  } catch {
    return undefined;
  }
}
