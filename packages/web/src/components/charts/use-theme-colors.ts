// Colour tokens resolved to concrete colours for canvas drawing. Tokens are light-dark() values,
// which a canvas cannot take and getPropertyValue does not resolve, so each token is applied to a
// probe element and its computed colour read back; re-read when the theme or OS scheme changes.
import { type RefObject, useEffect, useState } from "react";

export interface ThemeColors {
  readonly text: string;
  readonly grid: string;
  /** One per requested series token, in order. */
  readonly series: readonly string[];
}

function resolve(host: HTMLElement, tokens: readonly string[]): string[] {
  const probe = document.createElement("span");
  probe.hidden = true;
  host.appendChild(probe);
  const out = tokens.map((token) => {
    probe.style.color = token.startsWith("--") ? `var(${token})` : token;
    return getComputedStyle(probe).color;
  });
  probe.remove();
  return out;
}

export function useThemeColors(
  hostRef: RefObject<HTMLElement | null>,
  tokens: readonly string[],
): ThemeColors | null {
  const [colors, setColors] = useState<ThemeColors | null>(null);
  const key = tokens.join("|");
  useEffect(() => {
    const read = () => {
      const host = hostRef.current;
      if (host === null) return;
      const [text, grid, ...series] = resolve(host, ["--text-subtle", "--border", ...key.split("|")]);
      setColors((current) => {
        const next = { text: text as string, grid: grid as string, series };
        return current !== null && JSON.stringify(current) === JSON.stringify(next) ? current : next;
      });
    };
    read();
    const observer = new MutationObserver(read);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    const scheme = window.matchMedia("(prefers-color-scheme: dark)");
    scheme.addEventListener("change", read);
    return () => {
      observer.disconnect();
      scheme.removeEventListener("change", read);
    };
  }, [hostRef, key]);
  return colors;
}
