// A new person's first minutes: an empty projects list leading to a new project, an app, a key
// shown once (and copied), the curl snippet run for real from this test, and the waiting panel
// turning green by itself when the record arrives. The Express tab's file, run as shown with the
// Node SDK, records its own traffic too. And the way back in: the project list, the breadcrumb
// and the switcher open a project's Overview, which for a project without traffic leads to Setup.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { RequestsPage } from "@sightline/contracts";
import { freePort } from "../../server/test/support/process";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { type Opened, signInFast } from "./support/browser";
import { apiAs, ingest } from "./support/seed";
import { browserSuite } from "./support/suite";

const run = promisify(execFile);

describe.skipIf(inject("browserSkipReason") !== "")("onboarding", () => {
  const suite = browserSuite();
  let opened: Opened;

  beforeAll(async () => {
    opened = await suite.open();
  });

  it("goes from no project to a first request seen, with the snippet as shown", async () => {
    const { page, context } = opened;
    await signInFast(context, suite.server, "first-timer@example.com");
    await page.goto("/");
    await page.getByRole("heading", { name: "No projects yet" }).waitFor();
    await page.getByRole("link", { name: "New project" }).click();
    await page.getByLabel("Project name").fill("Acme Store");
    await page.getByLabel("Description (optional)").fill("Everything the storefront calls.");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("heading", { name: "Set up Acme Store" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/acme-store/setup");

    await page.getByLabel("App name").fill("Storefront API");
    await page.getByLabel("Framework").selectOption("express");
    await page.getByLabel("Environment").fill("production");
    await page.getByRole("button", { name: "Create app" }).click();
    // The app's framework decides the first tab: the Node SDK's Express quick start.
    expect(await page.getByRole("tab", { selected: true }).innerText()).toBe("Express");
    await page.getByRole("button", { name: "Create an API key for Storefront API" }).click();
    const secret = page.locator("[data-secret]");
    await secret.waitFor();
    const key = (await secret.innerText()).trim();
    expect(key).toMatch(/^sl_/);
    expect(new URL(page.url()).searchParams.get("app")).toBe("storefront-api");

    await page.getByRole("button", { name: /^Copy\s+API key/ }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const panel = page.locator("[data-state='waiting']");
    await panel.getByText("Waiting for your first request…").waitFor();
    await page.getByRole("tab", { name: "curl" }).click();
    const snippet = await page.getByRole("tabpanel").locator("pre").innerText();
    expect(snippet).toContain(key);
    expect(snippet).toContain(`${suite.server.url}/api/v1/ingest/requests`);
    expect(snippet).toContain('"app_id": "storefront-api"');

    // Exactly what a person would paste into a terminal.
    const { stdout } = await run("sh", ["-c", snippet]);
    expect(JSON.parse(stdout)).toMatchObject({ accepted: 1, rejected: 0 });

    const received = page.locator("[data-state='received']");
    await received.getByText("First request received").waitFor({ timeout: 20_000 });
    expect((await received.innerText()).replace(/\s+/g, " ")).toContain("GET /hello → 200");

    // The Express tab is a whole server with the SDK, filled in; run exactly as shown, it records
    // its own requests with their route template.
    await page.getByRole("tab", { name: "Express" }).click();
    const expressFile = await page.getByRole("tabpanel").locator("pre").innerText();
    expect(expressFile).toContain('from "@sightline/node/express"');
    expect(expressFile).toContain(`apiKey: "${key}"`);
    expect(expressFile).toContain(`url: "${suite.server.url}"`);
    await runNodeSnippet(expressFile, async (port) => {
      const answer = await fetch(`http://127.0.0.1:${port}/hello`, {
        headers: { "user-agent": "onboarding-express-check" },
      });
      expect(answer.status).toBe(200);
      // The app stays up until its record is stored (the SDK sends in batches, every 2 s).
      await expect
        .poll(
          async () => {
            const found = await context.request.get(
              "/api/v1/projects/acme-store/data/requests?app_slugs=storefront-api&page_size=50",
            );
            const body = (await found.json()) as RequestsPage;
            return body.items.find((item) => item.user_agent === "onboarding-express-check")?.route ?? null;
          },
          { timeout: 20_000 },
        )
        .toBe("/hello");
    });
    for (const framework of ["Fastify", "Hono", "Koa", "NestJS", "Next.js"]) {
      await page.getByRole("tab", { name: framework, exact: true }).click();
      const code = await page.getByRole("tabpanel").locator("pre").innerText();
      expect(code, framework).toContain(`apiKey: "${key}"`);
      expect(code, framework).toContain('app: "storefront-api"');
      expect(code, framework).toMatch(/from "@sightline\/node\/(fastify|hono|koa|nestjs|next)"/);
    }

    // The Python tab carries the same key and app; the APILens SDK's record shape is accepted.
    await page.getByRole("tab", { name: "Python · FastAPI" }).click();
    const python = await page.getByRole("tabpanel").locator("pre").innerText();
    expect(python).toContain(`api_key="${key}"`);
    expect(python).toContain('app_id="storefront-api"');
    expect(python).toContain(`base_url="${suite.server.url}/api/v1/ingest"`);
    const sdkRecord = {
      app_id: "storefront-api",
      timestamp: new Date().toISOString(),
      environment: "production",
      method: "GET",
      path: "/health",
      status_code: 200,
      response_time_ms: 3.5,
      request_size: 0,
      response_size: 12,
      ip_address: "",
      user_agent: "",
      consumer_id: "",
      consumer_name: "",
      consumer_group: "",
      request_payload: "",
      response_payload: "",
    };
    expect(await ingest(context.request, key, [sdkRecord])).toMatchObject({ accepted: 1, rejected: 0 });

    // The key is never kept: after a reload it is gone from the page and the snippets.
    await page.reload();
    await page.getByText("First request received").waitFor();
    expect(await page.locator("[data-secret]").count()).toBe(0);
    expect(await page.getByRole("tabpanel").locator("pre").innerText()).toContain("<your API key>");
    expect(
      await page.evaluate(
        () => JSON.stringify({ ...window.localStorage }) + JSON.stringify({ ...window.sessionStorage }),
      ),
    ).not.toContain(key);
  });

  it("opens a project on its Overview from the list, the breadcrumb and the switcher; no traffic leads to Setup", async () => {
    const { page, context } = await suite.open();
    await signInFast(context, suite.server, "quiet@example.com");
    const api = apiAs(context.request, suite.server);
    await api.post("/projects", { name: "Quiet" });
    await api.post("/projects", { name: "Other" });

    await page.goto("/projects");
    await page.getByRole("link", { name: /Quiet/ }).click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/quiet");
    // Nothing sent yet: the Overview says so and points to the setup guide.
    await page.getByText(/^No requests between/).waitFor();
    expect(await page.locator('dl[aria-label="Key figures"]').count()).toBe(0);
    await page.getByRole("link", { name: "Open the setup guide" }).click();
    await page.getByRole("heading", { name: "Set up Quiet" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/quiet/setup");

    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Quiet" }).click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/quiet");

    await page.getByRole("button", { name: /Project\s*Quiet/ }).click();
    await page.getByRole("menuitem", { name: "Other" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/projects/other");
    await page.getByRole("heading", { name: "Overview" }).waitFor();
  });
});

/**
 * Writes a snippet to a file inside the repository (so `express` and `@sightline/node` resolve
 * from its node_modules, as they would from the reader's project), runs it with node on a free
 * port, calls `use` once it answers, and stops it.
 */
async function runNodeSnippet<T>(code: string, use: (port: number) => Promise<T>): Promise<T> {
  const dir = fileURLToPath(new URL(`../../../test-results/snippet-${process.pid}/`, import.meta.url));
  await mkdir(dir, { recursive: true });
  const file = `${dir}server.mjs`;
  await writeFile(file, code);
  const port = await freePort();
  const child = spawn(process.execPath, [file], {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the snippet exited (${child.exitCode}):\n${output}`);
      try {
        await fetch(`http://127.0.0.1:${port}/`);
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`the snippet never listened:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return await use(port);
  } finally {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
    await rm(dir, { recursive: true, force: true });
  }
}
