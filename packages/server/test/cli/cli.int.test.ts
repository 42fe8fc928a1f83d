// The `sightline` client commands as a user runs them: the built binary in a child process against
// a real server on a real port, with data ingested through the real routes and sign-in mail
// delivered to a real SMTP server. Figures, exit codes, the credentials file, piping, a terminal
// (through `script`, a real pseudo-terminal), and a live tail seeing a record ingested meanwhile.
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  AlertRule,
  ContractChange,
  ContractReport,
  CreatedPersonalToken,
  TokenPair,
} from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { createTestContext, type TestContext } from "../support/app.js";
import { type Client, clientFor } from "../support/client.js";
import { magicLinkTokenOf } from "../support/mail.js";
import { freePort } from "../support/process.js";
import { ingest } from "../support/query-fixture.js";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.js";

const SERVER_DIR = fileURLToPath(new URL("../..", import.meta.url));
const BUILT_CLI = join(SERVER_DIR, "dist/cli.js");
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const OWNER = "owner@cli.test";

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describe("the sightline CLI against a running server", { timeout: 120_000 }, () => {
  let ctx: TestContext;
  let smtp: TestSmtpServer;
  let url: string;
  let home: string;
  let owner: Client;
  let token: string;
  let alert: AlertRule;
  const now = Date.now();
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

  /** Runs the built CLI; `env` on top of a clean environment whose HOME is a temporary one. */
  const sightline = async (
    args: readonly string[],
    env: Record<string, string> = {},
    stdin?: string,
  ): Promise<Ran> => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], {
      env: childEnv(env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdin.end(stdin ?? "");
    const [code] = (await once(child, "exit")) as [number | null];
    return { code, stdout, stderr };
  };
  const childEnv = (env: Record<string, string>): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    LANG: "C.UTF-8",
    ...env,
  });
  /** The CLI with the URL and token of the user's environment. */
  const authed = (args: readonly string[], env: Record<string, string> = {}) =>
    sightline(args, { SIGHTLINE_URL: url, SIGHTLINE_TOKEN: token, ...env });
  const ndjson = <T>(ran: Ran): T[] => {
    expect(ran.code, ran.stderr).toBe(0);
    return ran.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as T);
  };

  /** The magic-link flow over HTTP for set-up, reading the mail the SMTP server received. */
  const signInForSetup = async (email: string): Promise<TokenPair> => {
    const before = smtp.mailsTo(email).length;
    const requested = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/magic-link",
      payload: { email },
    });
    expect(requested.statusCode, requested.body).toBe(200);
    const mail = await smtp.waitForMail(email, { after: before });
    const verified = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/auth/verify",
      payload: { token: magicLinkTokenOf(mail.raw) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json<TokenPair>();
  };

  beforeAll(async () => {
    // The binary under test is the build: bring it up to date (a no-op after `npm run build`).
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-b", SERVER_DIR], { stdio: "inherit" });

    home = await mkdtemp(join(tmpdir(), "sightline-cli-home-"));
    smtp = await startSmtpServer();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    ctx = await createTestContext({ env: { SMTP_URL: smtp.url, PUBLIC_URL: url } });
    await ctx.app.listen({ host: "127.0.0.1", port });

    const session = await signInForSetup(OWNER);
    owner = clientFor(ctx.app, { authorization: `Bearer ${session.access_token}` });
    const created = async <T>(path: string, body: unknown): Promise<T> => {
      const response = await owner.post(path, body);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(201);
      return response.json<T>();
    };
    await created("/api/v1/projects", { name: "Shop", slug: "shop" });
    await created("/api/v1/projects/shop/apps", { name: "Checkout", slug: "checkout" });
    await created("/api/v1/projects/shop/apps", { name: "Billing", slug: "billing" });
    const key = (await created<{ key: string }>("/api/v1/projects/shop/api-keys", { name: "ingest" })).key;
    alert = await created<AlertRule>("/api/v1/projects/shop/alerts", {
      name: "Checkout failing",
      metric: "error_rate",
      error_status_from: 500,
      comparator: "gt",
      threshold: 5,
      window_seconds: 300,
    });
    token = (
      await created<CreatedPersonalToken>("/api/v1/users/me/tokens", {
        name: "cli suite",
        scope: "read",
        expires_in_days: 1,
      })
    ).token;

    const request = (minutes: number, fields: Record<string, unknown>) => ({
      app_id: "checkout",
      timestamp: ago(minutes),
      environment: "production",
      method: "GET",
      path: "/orders",
      status_code: 200,
      response_time_ms: 10,
      ...fields,
    });
    const acme = { consumer_id: "acme", consumer_name: "Acme Corp", consumer_group: "enterprise" };
    await ingest(
      ctx,
      "requests",
      [
        ...[10, 20, 30, 40, 50, 60].map((ms, index) =>
          request(20 - index, { ...acme, response_time_ms: ms }),
        ),
        request(9, { ...acme, method: "POST", status_code: 503, response_time_ms: 100 }),
        request(8, { ...acme, method: "POST", status_code: 503, response_time_ms: 120 }),
        request(7, {
          path: "/orders/17",
          route: "/orders/{id}",
          status_code: 404,
          response_time_ms: 5,
          consumer_id: "globex",
          trace_id: TRACE,
          request_payload: '{"looking":"for order 17"}',
          request_headers: { "x-request-id": "r-17" },
        }),
        request(120, { app_id: "billing", path: "/invoices", response_time_ms: 30 }),
      ],
      key,
    );
    const log = (minutes: number, level: string, message: string) => ({
      app_id: "checkout",
      timestamp: ago(minutes),
      environment: "production",
      level,
      message,
      logger_name: "app.orders",
    });
    await ingest(
      ctx,
      "logs",
      [
        log(15, "INFO", "order placed"),
        log(9, "ERROR", "payment provider timed out"),
        { ...log(7, "WARNING", "order 17 not found"), trace_id: TRACE },
      ],
      key,
    );
    const span = (offsetMs: number, fields: Record<string, unknown>) => ({
      app_id: "checkout",
      timestamp: new Date(now - 7 * 60_000 + offsetMs).toISOString(),
      environment: "production",
      trace_id: TRACE,
      service_name: "checkout-api",
      kind: "internal",
      status: "ok",
      ...fields,
    });
    await ingest(
      ctx,
      "traces",
      [
        span(0, { span_id: "b7ad6b7169203331", name: "GET /orders/{id}", kind: "server", duration_ms: 40 }),
        span(5, {
          span_id: "00f067aa0ba902b7",
          parent_span_id: "b7ad6b7169203331",
          name: "load order",
          kind: "db",
          duration_ms: 20,
        }),
      ],
      key,
    );
    // Two contract passes: the calls up to 8½ minutes ago make version 1; the later GET
    // /orders/{id} (route given, answered 404) makes version 2 with it as a new operation.
    await ctx.deps.contract.job.run(new Date(now - 8.5 * 60_000));
    await ctx.deps.contract.job.run(new Date(now + 20 * 60_000));
  }, 180_000);

  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it("signs in through the e-mailed link and stores a read token in a 0600 file", async () => {
    const before = smtp.mailsTo(OWNER).length;
    const child = spawn(process.execPath, [BUILT_CLI, "login", "--url", `${url}/`], {
      env: childEnv({}),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = once(child, "exit");
    child.stdin.write(`${OWNER}\n`);
    const mail = await smtp.waitForMail(OWNER, { after: before });
    // The person pastes the whole link, as copied from the message.
    const link = `${url}/auth/verify?token=${magicLinkTokenOf(mail.raw)}`;
    child.stdin.end(`${link}\n`);
    const [code] = (await exited) as [number | null];
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("E-mail:");
    expect(stderr).toContain(`A sign-in e-mail is on its way to ${OWNER}`);

    const path = join(home, "config", "sightline", "credentials.json");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, "config", "sightline"))).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(path, "utf8")) as { url: string; token: string };
    expect(stored.url).toBe(url);
    expect(stored.token).toMatch(/^sl_pat_/);
    // Piped, login answers JSON describing what it stored (never the secret itself).
    const summary = JSON.parse(stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ url, email: OWNER, scope: "read", credentials_path: path });
    expect(stdout).not.toContain(stored.token);

    // The stored login is used when no URL or token is given, and the token it holds is live.
    const projects = ndjson<{ slug: string; role: string }>(await sightline(["projects"]));
    expect(projects).toEqual([expect.objectContaining({ slug: "shop", role: "owner" })]);
    const tokens = await owner.get("/api/v1/users/me/tokens");
    const names = tokens.json<{ tokens: { name: string; scope: string }[] }>().tokens;
    expect(names).toContainEqual(
      expect.objectContaining({ name: expect.stringMatching(/^sightline CLI on /), scope: "read" }),
    );

    // Another URL never receives the stored token.
    const elsewhere = await sightline(["projects", "--url", "http://127.0.0.1:9"]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain("not signed in to http://127.0.0.1:9");

    const out = await sightline(["logout"]);
    expect(out.code).toBe(0);
    await expect(stat(path)).rejects.toThrow();
    const after = await sightline(["projects", "--url", url]);
    expect(after.code).toBe(2);
  });

  it("refuses a code that is not the e-mailed one with the auth exit code", async () => {
    const ran = await sightline(
      ["login", "--url", url, "--email", "someone@cli.test"],
      {},
      "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n",
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("that code is unknown, used or expired");
  });

  it("lists endpoints with their figures over a window", async () => {
    const rows = ndjson<Record<string, unknown>>(
      await authed(["endpoints", "--since", "1h", "--sort", "endpoint"]),
    );
    expect(rows.map((row) => [row.method, row.path, row.total_requests, row.error_count])).toEqual([
      ["GET", "/orders", 6, 0],
      ["GET", "/orders/{id}", 1, 1],
      ["POST", "/orders", 2, 2],
    ]);
    const get = rows.find((row) => row.method === "GET" && row.path === "/orders");
    expect(get).toMatchObject({ app_slug: "checkout", avg_response_time_ms: 35, p50_response_time_ms: 35 });
    // 24 hours (the default window) also reaches billing's request of two hours ago.
    const day = ndjson<Record<string, unknown>>(await authed(["endpoints", "--app", "billing"]));
    expect(day).toEqual([expect.objectContaining({ path: "/invoices", total_requests: 1 })]);
    const failing = ndjson<Record<string, unknown>>(await authed(["endpoints", "--status-class", "5xx"]));
    expect(failing).toEqual([
      expect.objectContaining({ method: "POST", path: "/orders", total_requests: 2 }),
    ]);
  });

  it("searches requests with every kind of filter", async () => {
    const ids = async (...args: string[]) =>
      ndjson<{ path: string; status_code: number }>(await authed(["requests", "-p", "shop", ...args]));
    expect(await ids()).toHaveLength(10);
    expect(await ids("--since", "1h")).toHaveLength(9);
    expect(await ids("--from", ago(21), "--to", ago(15))).toHaveLength(6);
    expect(await ids("--status-class", "5xx")).toHaveLength(2);
    expect(await ids("--status", "404,503")).toHaveLength(3);
    expect(await ids("--method", "post")).toHaveLength(2);
    expect(await ids("--consumer", "acme")).toHaveLength(8);
    expect(await ids("--route", "/orders/{id}")).toEqual([expect.objectContaining({ path: "/orders/17" })]);
    expect(await ids("--path", "/ord*")).toHaveLength(9);
    expect(await ids("--trace", TRACE)).toHaveLength(1);
    expect(await ids("--min-ms", "50", "--max-ms", "100")).toHaveLength(3);
    expect(await ids("--app", "billing", "--env", "production")).toHaveLength(1);
    const paged = await ids("--page", "2", "--page-size", "4");
    expect(paged).toHaveLength(4);
  });

  it("shows one request in full, and answers 3 for an unknown one", async () => {
    const [found] = ndjson<{ id: string }>(await authed(["requests", "--route", "/orders/{id}"]));
    const detail = await authed(["request", (found as { id: string }).id, "--json"]);
    expect(detail.code, detail.stderr).toBe(0);
    expect(JSON.parse(detail.stdout)).toMatchObject({
      path: "/orders/17",
      status_code: 404,
      request_payload: '{"looking":"for order 17"}',
      request_headers: { "x-request-id": "r-17" },
    });
    const missing = await authed(["request", "0192f3c4-5b6a-7d8e-9f01-23456789abcd"]);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe("");
  });

  it("lists errors, consumers, traces, one trace and alerts with their figures", async () => {
    const errors = ndjson<Record<string, unknown>>(await authed(["errors", "--since", "1h"]));
    expect(
      errors.map((row) => [row.method, row.path, row.status_code, row.count, row.affected_consumers]),
    ).toEqual([
      ["POST", "/orders", 503, 2, 1],
      ["GET", "/orders/{id}", 404, 1, 1],
    ]);
    const consumers = ndjson<Record<string, unknown>>(
      await authed(["consumers", "--since", "1h", "--sort", "consumer"]),
    );
    expect(consumers.map((row) => [row.consumer, row.total_requests, row.error_count])).toEqual([
      ["Acme Corp", 8, 2],
      ["globex", 1, 1],
    ]);
    const traces = ndjson<Record<string, unknown>>(await authed(["traces"]));
    expect(traces).toEqual([expect.objectContaining({ trace_id: TRACE, span_count: 2, duration_ms: 40 })]);
    const trace = await authed(["trace", TRACE]);
    expect(trace.code, trace.stderr).toBe(0);
    const detail = JSON.parse(trace.stdout) as { spans: { name: string; depth: number }[]; logs: unknown[] };
    expect(detail.spans.map((span) => [span.name, span.depth])).toEqual([
      ["GET /orders/{id}", 0],
      ["load order", 1],
    ]);
    expect(detail.logs).toHaveLength(1);
    const rules = ndjson<AlertRule>(await authed(["alerts"]));
    expect(rules).toEqual([expect.objectContaining({ id: alert.id, name: "Checkout failing", state: "ok" })]);
    const events = await authed(["alerts", alert.id]);
    expect(events.code, events.stderr).toBe(0);
  });

  it("prints the inferred contract, its changes with affected consumers, and the report", async () => {
    const scope = ["--app", "checkout", "--env", "production"];
    const json = await authed(["contract", ...scope]);
    expect(json.code, json.stderr).toBe(0);
    const document = JSON.parse(json.stdout) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths).sort()).toEqual(["/orders", "/orders/{id}"]);
    const file = join(home, "openapi.yaml");
    const yaml = await authed(["contract", "show", ...scope, "--format", "yaml", "-o", file]);
    expect([yaml.code, yaml.stdout]).toEqual([0, ""]);
    expect(parseYaml(await readFile(file, "utf8"))).toEqual(document);
    const first = await authed(["contract", ...scope, "--contract-version", "1"]);
    expect(Object.keys((JSON.parse(first.stdout) as typeof document).paths)).toEqual(["/orders"]);

    const changes = ndjson<ContractChange>(await authed(["contract", "changes"]));
    expect(changes.map((c) => [c.version, c.breaking, c.kind, c.method, c.path, c.consumers_total])).toEqual([
      [2, false, "operation_added", "GET", "/orders/{id}", 1],
    ]);
    expect(ndjson(await authed(["contract", "changes", "--breaking"]))).toEqual([]);
    const change = await authed(["contract", "change", (changes[0] as ContractChange).id]);
    expect(change.code, change.stderr).toBe(0);
    expect((JSON.parse(change.stdout) as ContractChange).consumers).toEqual([
      { consumer_id: "globex", consumer_name: "", requests: 1 },
    ]);
    const missing = await authed(["contract", "change", "0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"]);
    expect(missing.code).toBe(3);

    const uploaded = await owner.post("/api/v1/projects/shop/api/declared?app=checkout", {
      openapi: "3.1.0",
      info: { title: "Checkout", version: "1" },
      paths: {
        "/orders": { get: { responses: { "200": { description: "ok" } } } },
        "/health": { get: { responses: { "200": { description: "ok" } } } },
      },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const report = await authed(["contract", "report", ...scope]);
    expect(report.code, report.stderr).toBe(0);
    const answer = JSON.parse(report.stdout) as ContractReport;
    expect(answer.undocumented.map((row) => [row.method, row.path, row.requests])).toEqual(
      expect.arrayContaining([
        ["POST", "/orders", 2],
        ["GET", "/orders/{id}", 1],
      ]),
    );
    expect(answer.undocumented).toHaveLength(2);
    expect(answer.unused.map((row) => [row.method, row.path])).toEqual([["GET", "/health"]]);
    expect(answer.conformance.map((row) => [row.method, row.path])).toEqual([["GET", "/orders"]]);

    expect((await authed(["contract", "report", "--app", "checkout"])).code).toBe(1);
  });

  it("searches logs with their filters", async () => {
    const messages = async (...args: string[]) =>
      ndjson<{ message: string }>(await authed(["logs", ...args])).map((record) => record.message);
    expect(await messages()).toEqual(["order 17 not found", "payment provider timed out", "order placed"]);
    expect(await messages("--level", "error,warning")).toEqual([
      "order 17 not found",
      "payment provider timed out",
    ]);
    expect(await messages("--search", "TIMED OUT")).toEqual(["payment provider timed out"]);
    expect(await messages("--logger", "app.orders", "--trace", TRACE)).toEqual(["order 17 not found"]);
  });

  it("exports every matching record to standard output or a file, as NDJSON or CSV", async () => {
    const records = ndjson<{ status_code: number }>(
      await authed(["export", "requests", "--consumer", "acme"]),
    );
    expect(records).toHaveLength(8);
    const file = join(home, "errors.csv");
    const ran = await authed(["export", "requests", "--status-class", "5xx", "--format", "csv", "-o", file]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe("");
    const csv = (await readFile(file, "utf8")).trim().split(/\r\n/);
    expect(csv[0]).toMatch(/^id,timestamp,/);
    expect(csv).toHaveLength(3);
    const logs = ndjson<{ level: string }>(await authed(["export", "logs", "--level", "error"]));
    expect(logs.map((record) => record.level)).toEqual(["ERROR"]);
  });

  it("answers with stable exit codes: usage 1, auth 2, not found 3, server 4", async () => {
    expect((await authed(["requests", "--page-size", "0"])).code).toBe(1);
    expect((await authed(["requests", "--bogus"])).code).toBe(1);
    const since = await authed(["requests", "--since", "yesterday"]);
    expect(since.code).toBe(1);
    expect(since.stderr).toContain('--since "yesterday"');
    // A value only the server can judge: its 422 names the parameter.
    const unknownApp = await authed(["requests", "--app", "nosuch"]);
    expect(unknownApp.code).toBe(1);
    expect(unknownApp.stderr).toContain("app_slugs");
    expect((await sightline(["projects", "--url", url])).code).toBe(2);
    const revoked = await authed(["projects"], {
      SIGHTLINE_TOKEN: "sl_pat_thisisnotarealtokenatall000000000000",
    });
    expect(revoked.code).toBe(2);
    expect((await authed(["endpoints", "--project", "nosuch"])).code).toBe(3);
    const down = await authed(["projects"], { SIGHTLINE_URL: `http://127.0.0.1:${await freePort()}` });
    expect(down.code).toBe(4);
    expect(down.stderr).toContain("cannot reach");
    const help = await sightline(["logs", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--follow");
    const version = await sightline(["version"]);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("prints aligned tables with colour on a terminal, and no colour with NO_COLOR", async () => {
    // `script` runs the CLI on a real pseudo-terminal; its own output is what the terminal showed.
    const onTerminal = async (args: string, env: Record<string, string> = {}) => {
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BUILT_CLI)} ${args}`;
      const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
        env: childEnv({ SIGHTLINE_URL: url, SIGHTLINE_TOKEN: token, ...env }),
        stdio: ["pipe", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
      child.stdin.end();
      const [code] = (await once(child, "exit")) as [number | null];
      expect(code, out).toBe(0);
      return out.replace(/\r\n/g, "\n");
    };
    const table = await onTerminal("errors --since 1h", { NO_COLOR: "1" });
    expect(table).not.toContain("\u001b[");
    const lines = table.split("\n").filter((line) => line.trim() !== "");
    expect(lines[0]).toMatch(/^APP\s+METHOD\s+PATH\s+STATUS\s+COUNT\s+CONSUMERS\s+FIRST SEEN/);
    expect(lines[1]).toMatch(/^checkout\s+POST\s+\/orders\s+503\s+2\s+1\s/);
    // Columns line up: every row starts its STATUS column where the header does.
    const statusAt = (lines[0] as string).indexOf("STATUS");
    expect((lines[1] as string).slice(statusAt, statusAt + 3)).toBe("503");
    expect((lines[2] as string).slice(statusAt, statusAt + 3)).toBe("404");
    expect(lines.at(-1)).toBe("1–2 of 2");

    const colored = await onTerminal("errors --since 1h");
    expect(colored).toContain("\u001b[31m503");
    expect(await onTerminal("errors --since 1h --no-color")).not.toContain("\u001b[");
    // One record and one trace read as views; logs as aligned lines.
    const [found] = ndjson<{ id: string }>(await authed(["requests", "--route", "/orders/{id}"]));
    const request = await onTerminal(`request ${(found as { id: string }).id}`, { NO_COLOR: "1" });
    expect(request).toContain("GET /orders/17");
    expect(request).toMatch(/Status\s+404/);
    expect(request).toContain("  x-request-id: r-17");
    expect(request).toContain('Request payload\n{"looking":"for order 17"}');
    const trace = await onTerminal(`trace ${TRACE}`, { NO_COLOR: "1" });
    expect(trace).toContain(`Trace ${TRACE}`);
    expect(trace).toMatch(/\n\s+0\.00\s+40\.0\s+GET \/orders\/\{id\}\s+server/);
    expect(trace).toMatch(/\n\s+5\.00\s+20\.0\s+ {2}load order\s+db/);
    expect(trace).toContain("Requests (1)");
    expect(trace).toContain("Logs (1)");
    const logs = (await onTerminal("logs --level error,warning", { NO_COLOR: "1" })).trim().split("\n");
    expect(logs[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}WARNING {3}app\.orders order 17 not found$/);
    expect(logs[1]).toMatch(/ {2}ERROR {5}app\.orders payment provider timed out$/);
    expect(logs[2]).toBe("1–2 of 2");
    const report = await onTerminal("contract report --app checkout --env production", { NO_COLOR: "1" });
    expect(report).toContain("Undocumented (seen, not declared): 2\n");
    expect(report).toContain("Unused (declared, not seen): 1\n  GET /health — 0 requests\n");
    const [change] = ndjson<ContractChange>(await authed(["contract", "changes"]));
    const view = await onTerminal(`contract change ${(change as ContractChange).id}`, { NO_COLOR: "1" });
    expect(view).toContain(
      "non-breaking · operation_added\nGET /orders/{id} (checkout, production, version 2)",
    );
    expect(view).toContain("Affected consumers (last 7 days): 1\n  globex — 1 requests");
    // --json asks for the records on a terminal too: NDJSON, no colour, no footer.
    const json = (await onTerminal("errors --since 1h --json")).trim().split("\n");
    expect(json.map((line) => (JSON.parse(line) as { status_code: number }).status_code)).toEqual([503, 404]);
  });

  it("writes NDJSON when piped and stops quietly when the reader closes the pipe", async () => {
    const piped = await authed(["requests"]);
    expect(piped.stdout.trim().split("\n")).toHaveLength(10);
    const child = spawn(
      "sh",
      ["-c", `${JSON.stringify(process.execPath)} ${JSON.stringify(BUILT_CLI)} requests | head -n 1`],
      {
        env: childEnv({ SIGHTLINE_URL: url, SIGHTLINE_TOKEN: token }),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    await once(child, "exit");
    expect(out.trim().split("\n")).toHaveLength(1);
    expect(err).toBe("");
  });

  it("follows logs: prints the recent ones, then a record ingested while it runs, once", async () => {
    const child = spawn(process.execPath, [BUILT_CLI, "logs", "--follow", "--interval", "0.3", "-n", "2"], {
      env: childEnv({ SIGHTLINE_URL: url, SIGHTLINE_TOKEN: token }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    const exited = once(child, "exit");
    const lines = () =>
      out
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => (JSON.parse(line) as { message: string }).message);
    const until = async (predicate: () => boolean, what: string) => {
      const deadline = Date.now() + 30_000;
      while (!predicate()) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what}; stdout:\n${out}\nstderr:\n${err}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await until(() => lines().length >= 2, "the backlog");
    expect(lines()).toEqual(["payment provider timed out", "order 17 not found"]);

    const key = (await owner.post("/api/v1/projects/shop/api-keys", { name: "tail" })).json<{ key: string }>()
      .key;
    await ingest(
      ctx,
      "logs",
      [
        {
          app_id: "checkout",
          timestamp: new Date().toISOString(),
          level: "INFO",
          message: "fresh while tailing",
        },
      ],
      key,
    );
    await until(() => lines().includes("fresh while tailing"), "the new record");
    // A few more polls: nothing printed twice.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(lines()).toEqual(["payment provider timed out", "order 17 not found", "fresh while tailing"]);
    child.kill("SIGINT");
    const [code] = (await exited) as [number | null];
    expect(code, err).toBe(0);
  });

  // Last: it gives the owner a second project, which the tests above assume they do not have.
  it("asks which project once you have several, and takes SIGHTLINE_PROJECT or --project", async () => {
    const second = await owner.post("/api/v1/projects", { name: "Lab", slug: "lab" });
    expect(second.statusCode, second.body).toBe(201);
    const ambiguous = await authed(["requests"]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain("choose one with --project or SIGHTLINE_PROJECT (lab, shop)");
    expect(ndjson(await authed(["requests"], { SIGHTLINE_PROJECT: "shop" }))).toHaveLength(10);
    expect(ndjson(await authed(["requests", "--project", "lab"], { SIGHTLINE_PROJECT: "shop" }))).toEqual([]);
  });
});
