// The dashboard's small pieces of logic: retries, safe redirects, time zones, formats,
// snippets, user agents, environment reordering, breadcrumbs, the waiting panel's polling.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import { crumbsFor, navigablePages } from "../components/shell/navigation";
import { createAppRouter } from "../router";
import { describeUserAgent } from "../features/account/user-agent";
import { moved, reorderPatches } from "../features/settings/EnvironmentsCard";
import { PATIENCE_MS, POLL_INTERVAL_MS, pollInterval } from "../features/setup/FirstRequestPanel";
import { ApiError } from "./api-client";
import { formatLatency, pluralise, relativeTime } from "./format";
import { FRAMEWORK_OPTIONS } from "./frameworks";
import { retryDelay, shouldRetry } from "./query-client";
import { safeNext, signInReason } from "./search";
import {
  API_KEY_PLACEHOLDER,
  defaultSnippetFor,
  NODE_SNIPPETS,
  SNIPPETS,
  type SnippetContext,
} from "./snippets";
import { formatOffset, offsetMinutes, zoneOptions } from "./timezones";

const apiError = (status: number, retryAfterSeconds?: number) =>
  new ApiError({ status, code: `http_${status}`, detail: "x", retryAfterSeconds });

describe("retries", () => {
  it("retries only what may succeed later, and at most three times", () => {
    expect(shouldRetry(0, apiError(0))).toBe(true);
    expect(shouldRetry(0, apiError(503))).toBe(true);
    expect(shouldRetry(3, apiError(503))).toBe(false);
    for (const status of [400, 401, 403, 404, 422, 429]) expect(shouldRetry(0, apiError(status))).toBe(false);
    expect(shouldRetry(0, new Error("bug"))).toBe(false);
  });

  it("waits as the server says, else backs off exponentially up to 8 s", () => {
    expect(retryDelay(0, apiError(503, 5))).toBe(5000);
    expect(retryDelay(0, apiError(503, 600))).toBe(30_000);
    expect([0, 1, 2, 3, 4].map((attempt) => retryDelay(attempt, apiError(503)))).toEqual([
      1000, 2000, 4000, 8000, 8000,
    ]);
  });
});

describe("where sign-in returns to", () => {
  it("keeps same-origin paths only", () => {
    expect(safeNext("/projects/shop/settings?x=1")).toBe("/projects/shop/settings?x=1");
    for (const bad of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
      7,
    ]) {
      expect(safeNext(bad)).toBeUndefined();
    }
    expect(safeNext("/auth/verify?token=x")).toBeUndefined();
    expect(signInReason("ended")).toBe("ended");
    expect(signInReason("<script>")).toBeUndefined();
  });
});

describe("time zones", () => {
  it("knows offsets, daylight saving included", () => {
    expect(offsetMinutes("UTC", new Date("2026-01-15T12:00:00Z"))).toBe(0);
    expect(offsetMinutes("Europe/Paris", new Date("2026-01-15T12:00:00Z"))).toBe(60);
    expect(offsetMinutes("Europe/Paris", new Date("2026-07-15T12:00:00Z"))).toBe(120);
    expect(offsetMinutes("Asia/Kolkata", new Date("2026-07-15T12:00:00Z"))).toBe(330);
    expect(offsetMinutes("America/St_Johns", new Date("2026-01-15T12:00:00Z"))).toBe(-210);
    expect(formatOffset(-210)).toBe("UTC−03:30");
    expect(formatOffset(330)).toBe("UTC+05:30");
  });

  it("lists zones west to east with readable labels", () => {
    const options = zoneOptions(["Asia/Tokyo", "UTC", "America/New_York"], new Date("2026-01-15T12:00:00Z"));
    expect(options.map((option) => option.label)).toEqual([
      "(UTC−05:00) America/New York",
      "(UTC+00:00) UTC",
      "(UTC+09:00) Asia/Tokyo",
    ]);
  });
});

describe("formats", () => {
  it("says how long ago, counts and latencies", () => {
    const now = Date.parse("2026-11-21T12:00:00Z");
    expect(relativeTime("2026-11-21T11:59:50Z", now)).toBe("just now");
    expect(relativeTime("2026-11-21T11:57:00Z", now)).toBe("3 min. ago");
    expect(relativeTime("2026-11-20T12:00:00Z", now)).toBe("yesterday");
    expect(relativeTime("not a date", now)).toBe("—");
    expect(pluralise(1, "app")).toBe("1 app");
    expect(pluralise(1200, "key")).toBe("1,200 keys");
    expect(formatLatency(0.4)).toBe("0.4 ms");
    expect(formatLatency(250)).toBe("250 ms");
    expect(formatLatency(1500)).toBe("1.50 s");
  });
});

describe("snippets", () => {
  const context: SnippetContext = {
    baseUrl: "http://localhost:8080",
    apiKey: "sl_secret",
    projectSlug: "shop",
    appSlug: "checkout-api",
    environment: "production",
    nonce: "n0nce",
  };

  it("fill in the key, project, app and this server's address", () => {
    for (const snippet of SNIPPETS) {
      const code = snippet.render(context);
      expect(code, snippet.id).toContain("sl_secret");
      expect(code, snippet.id).toContain("checkout-api");
      // The Node SDK takes the server's address; the others name the API's base.
      expect(code, snippet.id).toContain(
        NODE_SNIPPETS.includes(snippet) ? 'url: "http://localhost:8080"' : "http://localhost:8080/api/v1",
      );
    }
    expect(SNIPPETS.find((s) => s.id === "python-fastapi")?.render(context)).toContain('project_slug="shop"');
    // The APILens SDKs append /requests, /logs and /traces to their base URL.
    for (const id of ["python-fastapi", "python-client"]) {
      expect(SNIPPETS.find((s) => s.id === id)?.render(context), id).toContain(
        'base_url="http://localhost:8080/api/v1/ingest"',
      );
    }
  });

  it("show a placeholder, never a stale key, when none was created on this visit", () => {
    for (const snippet of SNIPPETS) {
      const code = snippet.render({ ...context, apiKey: null });
      expect(code).toContain(API_KEY_PLACEHOLDER);
      expect(code).not.toContain("sl_secret");
    }
  });

  it("give the shell a valid batch, whatever the environment's name holds", () => {
    const environment = `it's "quoted"; $(echo substituted) \\ done`;
    const code = SNIPPETS.find((s) => s.id === "curl")?.render({ ...context, environment }) ?? "";
    // A stand-in curl that prints what it would send.
    const stub = 'curl() { while [ $# -gt 0 ]; do [ "$1" = -d ] && printf "%s" "$2"; shift; done; }';
    const sent = JSON.parse(execFileSync("sh", ["-c", `${stub}\n${code}`], { encoding: "utf8" }));
    expect(sent.requests).toHaveLength(1);
    expect(sent.requests[0]).toMatchObject({
      app_id: "checkout-api",
      environment,
      method: "GET",
      status_code: 200,
    });
    expect(Date.parse(sent.requests[0].timestamp)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("pick the app's framework first", () => {
    expect(defaultSnippetFor("fastapi").id).toBe("python-fastapi");
    expect(defaultSnippetFor("flask").id).toBe("python-client");
    for (const framework of ["express", "fastify", "hono", "koa", "nestjs", "nextjs"])
      expect(defaultSnippetFor(framework).id).toBe(`node-${framework}`);
    expect(defaultSnippetFor("go").id).toBe("curl");
  });

  it("import from the Node SDK only what its package exports", () => {
    const sdk = new URL("../../../sdk-node/", import.meta.url);
    const exportsMap = JSON.parse(readFileSync(new URL("package.json", sdk), "utf8")).exports as Record<
      string,
      unknown
    >;
    const seen = new Set<string>();
    for (const snippet of NODE_SNIPPETS) {
      const code = snippet.render(context);
      const imports = [...code.matchAll(/import \{ ([^}]+) \} from "@sightline\/node(\/[a-z]+)?";/g)];
      expect(imports.length, snippet.id).toBeGreaterThan(0);
      for (const [, names, subpath] of imports) {
        const entry = subpath === undefined ? "." : `.${subpath}`;
        expect(Object.keys(exportsMap), snippet.id).toContain(entry);
        const source = readFileSync(
          new URL(subpath === undefined ? "src/index.ts" : `src/adapters${subpath}.ts`, sdk),
          "utf8",
        );
        for (const name of (names as string).split(",").map((part) => part.trim())) {
          expect(source, `${snippet.id}: ${name}`).toMatch(
            new RegExp(`export (async )?(function|class|const) ${name}\\b|export \\{[^}]*\\b${name}\\b`),
          );
          seen.add(entry);
        }
      }
    }
    // Every framework adapter is shown somewhere.
    expect([...seen].sort()).toEqual(
      ["."].concat(["./express", "./fastify", "./hono", "./koa", "./nestjs", "./next"]).sort(),
    );
  });
});

describe("small helpers", () => {
  it("names devices from user agents", () => {
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15",
      ),
    ).toBe("Safari on macOS");
    expect(
      describeUserAgent("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36"),
    ).toBe("Chrome on Linux");
    expect(describeUserAgent("curl/8.5.0")).toBe("curl");
    expect(describeUserAgent("")).toBe("Unknown device");
  });

  it("reorders environments with the fewest writes", () => {
    const env = (slug: string, order: number) => ({ slug, order }) as never;
    const list = [env("production", 0), env("staging", 1), env("preview", 2)];
    const up = moved(list, 2, 1);
    expect(reorderPatches(up)).toEqual([
      { slug: "preview", order: 1 },
      { slug: "staging", order: 2 },
    ]);
    expect(reorderPatches([env("a", 0), env("b", 0), env("c", 0)])).toEqual([
      { slug: "b", order: 1 },
      { slug: "c", order: 2 },
    ]);
  });

  it("polls every few seconds until a record arrives or patience runs out", () => {
    expect(pollInterval(undefined, 0)).toBe(POLL_INTERVAL_MS);
    expect(pollInterval(null, PATIENCE_MS - 1)).toBe(POLL_INTERVAL_MS);
    expect(pollInterval(null, PATIENCE_MS)).toBe(false);
    expect(pollInterval({ id: "r" } as never, 0)).toBe(false);
    expect(POLL_INTERVAL_MS).toBeGreaterThanOrEqual(2000);
  });

  it("lists every framework once", () => {
    expect(new Set(FRAMEWORK_OPTIONS.map((option) => option.value)).size).toBe(FRAMEWORK_OPTIONS.length);
  });

  it("builds breadcrumbs and the page list from the route tree", () => {
    const routes = Object.values(createAppRouter(new QueryClient()).routesById);
    const labels = (path: string) =>
      crumbsFor(routes, path).map((crumb) => {
        const meta = crumb.route.options.staticData;
        return meta?.crumb !== undefined ? `<${meta.crumb}>` : meta?.title;
      });
    expect(labels("/projects")).toEqual(["Projects"]);
    expect(labels("/projects/new")).toEqual(["Projects", "New project"]);
    expect(labels("/projects/shop/settings/keys")).toEqual(["Projects", "<project>", "Settings", "API keys"]);
    expect(labels("/projects/shop/settings/apps/checkout")).toEqual([
      "Projects",
      "<project>",
      "Settings",
      "Apps",
      "<app>",
    ]);
    expect(labels("/projects/shop/alerts/42/edit")).toEqual([
      "Projects",
      "<project>",
      "Alerts",
      "Rule",
      "Edit",
    ]);
    expect(labels("/account/security")).toEqual(["Account", "Security"]);
    // The project's crumb opens its Overview.
    expect(crumbsFor(routes, "/projects/shop/setup")[1]).toMatchObject({
      href: "/projects/shop",
      params: { project: "shop" },
    });
    // Every page a palette could offer has a title; the sidebar's sections come from the same tree.
    const pages = navigablePages(routes).map((page) => page.title);
    expect(pages).toEqual(expect.arrayContaining(["Overview", "Requests", "Logs", "Consumers", "Settings"]));
    expect(
      routes.filter((route) => route.options.staticData?.nav?.section === "project").map((r) => r.to),
    ).toEqual([
      "/projects/$project",
      "/projects/$project/requests",
      "/projects/$project/logs",
      "/projects/$project/traces",
      "/projects/$project/consumers",
      "/projects/$project/errors",
      "/projects/$project/setup",
      "/projects/$project/alerts",
      "/projects/$project/uptime",
      "/projects/$project/api",
      "/projects/$project/slos",
      "/projects/$project/settings",
    ]);
  });
});
