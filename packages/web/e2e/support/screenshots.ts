// One screenshot per page and theme. They go to docs/screenshots/ (what the README shows) when
// SIGHTLINE_SCREENSHOTS=1, else to test-results/screenshots/ (ignored by git), so an ordinary
// test run never rewrites committed images.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const DIR =
  process.env.SIGHTLINE_SCREENSHOTS === "1"
    ? join(ROOT, "docs", "screenshots")
    : join(ROOT, "test-results", "screenshots");

export async function screenshot(page: Page, name: string, theme: "light" | "dark"): Promise<string> {
  mkdirSync(DIR, { recursive: true });
  const path = join(DIR, `${name}-${theme}.png`);
  // Fonts and the settled layout, not a half-painted frame.
  await page.evaluate(() => document.fonts.ready);
  // The whole page in one viewport, so the sticky full-height sidebar spans it too.
  const viewport = page.viewportSize() ?? { width: 1280, height: 860 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({
    width: viewport.width,
    height: Math.max(viewport.height, Math.min(height, 2400)),
  });
  await page.screenshot({ path, animations: "disabled", caret: "hide" });
  await page.setViewportSize(viewport);
  return path;
}
