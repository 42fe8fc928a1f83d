// The check every page of a browser test ends with: no serious axe violation, and its screenshot
// in the given theme (named for the failure message and the file).
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { seriousAxeViolations } from "./axe";
import { screenshot } from "./screenshots";

export async function checkPage(page: Page, name: string, theme: "light" | "dark"): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${name} in ${theme}: ${violations.join("; ")}`).toEqual([]);
  await screenshot(page, name, theme);
}

/** From the project's Overview, follows the sidebar's `link` to the page headed by the same name. */
export async function openFromSidebar(page: Page, link: string, project = "shop"): Promise<void> {
  await page.goto(`/projects/${project}`);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: link }).click();
  await page.getByRole("heading", { name: link, exact: true }).waitFor();
}
