// The Download control of the request and log explorers: with a filter applied on the page, the
// downloaded file holds exactly the records the page lists (CSV for requests, NDJSON for logs),
// fetched by the browser with its session cookie; both pages stay clean under axe.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";
import { everyThirdFailing, ingest, ingestLogs, logRecord } from "./support/seed";
import { checkoutOwner } from "./support/people";
import { browserSuite } from "./support/suite";

async function download(page: Page, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).click()]);
  // The browser runs remotely (connectBrowser), so the file is read through Playwright.
  const chunks: Buffer[] = [];
  for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

describe.skipIf(inject("browserSkipReason") !== "")("downloading the explorers' records", () => {
  const suite = browserSuite();
  const me = checkoutOwner(suite, "erin@example.com");

  beforeAll(async () => {
    const now = Date.now();
    expect(await ingest(me.context.request, me.key.key, everyThirdFailing(now, 12))).toMatchObject({
      accepted: 12,
    });
    await ingestLogs(
      me.context.request,
      me.key.key,
      ["INFO", "ERROR", "INFO", "ERROR", "WARNING"].map((level, index) =>
        logRecord("checkout-api", {
          timestamp: new Date(now - (index + 1) * 10_000).toISOString(),
          level,
          message: `step ${index}, "${level.toLowerCase()}"`,
        }),
      ),
    );
  });

  it("downloads as CSV exactly the requests the filtered page lists", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h");
    await page.getByText("1–12 of 12 requests").waitFor();
    await page.getByRole("combobox", { name: /^Status/ }).selectOption("5xx");
    await page.getByText("1–4 of 4 requests").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "requests-download", "light");

    const [header, ...rows] = (await download(page, "Download the matching requests as CSV"))
      .trimEnd()
      .split("\r\n")
      .map((line) => line.split(","));
    const column = (name: string) => (header ?? []).indexOf(name);
    expect(column("status_code")).toBeGreaterThan(-1);
    expect(rows.map((row) => row[column("status_code")])).toEqual(["500", "500", "500", "500"]);
    expect(rows.map((row) => row[column("path")])).toEqual([
      "/orders/0",
      "/orders/3",
      "/orders/6",
      "/orders/9",
    ]);
  });

  it("downloads as NDJSON exactly the logs the filtered page lists", async () => {
    const { page } = me;
    await page.goto("/projects/shop/logs?range=1h");
    await page.getByText("1–5 of 5 logs").waitFor();
    await page.getByRole("combobox", { name: /^Level/ }).selectOption("ERROR");
    await page.getByText("1–2 of 2 logs").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    const lines = (await download(page, "Download the matching logs as NDJSON")).trimEnd().split("\n");
    const records = lines.map((line) => JSON.parse(line) as { level: string; message: string });
    expect(records.map((entry) => [entry.level, entry.message])).toEqual([
      ["ERROR", 'step 1, "error"'],
      ["ERROR", 'step 3, "error"'],
    ]);
  });
});
