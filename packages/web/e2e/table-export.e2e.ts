// Every table offers its rows for download: a settings list (Apps) as NDJSON from the client,
// and the recent requests of an endpoint as CSV from the server's export, holding exactly that
// endpoint's requests of the window; the Requests explorer keeps only its server export.
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ingest, record } from "./support/seed";
import { checkoutOwner } from "./support/people";
import { browserSuite } from "./support/suite";

async function download(page: Page, control: Locator): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent("download"), control.click()]);
  const chunks: Buffer[] = [];
  for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
  return { name: file.suggestedFilename(), text: Buffer.concat(chunks).toString("utf8") };
}

describe.skipIf(inject("browserSkipReason") !== "")("exporting tables", () => {
  const suite = browserSuite();
  const me = checkoutOwner(suite, "ed@example.com", {
    seed: { more: [{ name: "Billing", framework: "express" }] },
  });

  beforeAll(async () => {
    const now = Date.now();
    const records = [
      ...[1, 2, 3].map((index) =>
        record("checkout-api", {
          timestamp: new Date(now - index * 30_000).toISOString(),
          method: "POST",
          path: `/refunds/${index}`,
          route: "/refunds/{id}",
        }),
      ),
      record("checkout-api", { timestamp: new Date(now - 120_000).toISOString() }),
    ];
    expect(await ingest(me.context.request, me.key.key, records)).toMatchObject({ accepted: 4 });
  });

  it("downloads a settings list as NDJSON", async () => {
    const { page } = me;
    await page.goto("/projects/shop/settings/apps");
    const control = page.getByRole("button", { name: "Download these apps as NDJSON" });
    const { name, text } = await download(page, control);
    expect(name).toBe("shop-apps.ndjson");
    const slugs = text
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { slug: string }).slug)
      .sort();
    expect(slugs).toEqual(["billing", "checkout-api"]);
  });

  it("downloads an endpoint's recent requests from the server, and only those", async () => {
    const { page } = me;
    await page.goto(
      "/projects/shop/endpoints/detail?range=1h&app=checkout-api&method=POST&path=%2Frefunds%2F%7Bid%7D&tab=requests",
    );
    const control = page.getByRole("link", { name: "Download the matching requests as CSV" });
    const { text } = await download(page, control);
    const [header, ...rows] = text
      .trimEnd()
      .split("\r\n")
      .map((line) => line.split(","));
    const path = (header ?? []).indexOf("path");
    expect(rows.map((row) => row[path]).sort()).toEqual(["/refunds/1", "/refunds/2", "/refunds/3"]);
  });

  it("keeps the Requests explorer to its server export", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h");
    await page.getByText("1–4 of 4 requests").waitFor();
    expect(await page.getByRole("link", { name: "Download the matching requests as CSV" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: /^Download these requests/ }).count()).toBe(0);
  });
});
