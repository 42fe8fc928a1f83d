// npm run bench:alerts — one alert evaluation pass over 1,000 rules in 100 projects, on the
// bench:query dataset (bench/dataset.ts): 10 M request records over 30 days, here spread over 100
// projects of one app each (1% of the rows each). Projects, apps and rules are made through the
// HTTP routes (in-process); the evaluator is the server's own. Printed side by side: the grouped
// pass (one statement per project and window) and, as the baseline, the same rules evaluated with
// one statement each. Target: a pass under 5 s. Knobs: BENCH_ROWS (10000000), BENCH_PASSES (5).
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../packages/server/src/app.js";
import { loadConfig } from "../packages/server/src/config/index.js";
import { createDeps } from "../packages/server/src/deps.js";
import { createLogger } from "../packages/server/src/logger.js";
import { observe } from "../packages/server/src/stores/events/queries/alerts/metrics.js";
import { metricSpecOf } from "../packages/server/src/modules/alerts/rule-rows.js";
import { createAlertRulesRepo } from "../packages/server/src/stores/metadata/repos/alert-rules.repo.js";
import { magicLinkTokenOf, outboxMessagesFor } from "../packages/server/test/support/mail.js";
import { type DatasetApp, datasetParams, requestsSql } from "./dataset.js";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const PASSES = Number(process.env.BENCH_PASSES ?? 5);
const PROJECTS = 100;
const TARGET_MS = 5_000;

const say = (line = "") => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** Ten rules per project over three windows: 5 min, 1 h and 24 h (three statements per project). */
function rulesOf(app: string): Array<Record<string, unknown>> {
  const endpoint = { method: "GET", route: "/api/v1/res1/{id}" };
  return [
    { metric: "error_rate", comparator: "gt", threshold: 5, window_seconds: 300 },
    {
      metric: "error_rate",
      error_status_from: 400,
      comparator: "gt",
      threshold: 20,
      window_seconds: 3600,
      scope: { app },
    },
    {
      metric: "p95_latency_ms",
      comparator: "gt",
      threshold: 500,
      window_seconds: 300,
      scope: { app, environment: "production" },
    },
    {
      metric: "p99_latency_ms",
      comparator: "gt",
      threshold: 1000,
      window_seconds: 3600,
      scope: { app, endpoint },
    },
    { metric: "request_count", comparator: "lt", threshold: 1, window_seconds: 300, scope: { app } },
    { metric: "request_count", comparator: "gt", threshold: 10_000, window_seconds: 86_400 },
    {
      metric: "status_count",
      status: "5xx",
      comparator: "gt",
      threshold: 10,
      window_seconds: 3600,
      scope: { app },
    },
    { metric: "status_count", status: "503", comparator: "gt", threshold: 5, window_seconds: 86_400 },
    {
      metric: "p95_latency_ms",
      comparator: "gt",
      threshold: 300,
      window_seconds: 86_400,
      scope: { app, environment: "staging" },
    },
    {
      metric: "error_rate",
      comparator: "gte",
      threshold: 10,
      window_seconds: 300,
      min_requests: 50,
      scope: { app, endpoint },
    },
  ].map((rule, index) => ({ name: `rule ${index + 1}`, ...rule }));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-bench-alerts-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
  const deps = await createDeps(config, { logger: createLogger(config.logLevel) });
  const app = await buildApp(deps);
  try {
    say(`bench:alerts ${PROJECTS * 10} rules in ${PROJECTS} projects over ${ROWS} request records (30 days)`);
    say(`machine      ${cpus().length} CPUs, load average ${load()} (other processes share these cores)`);
    const send = async (method: "POST", url: string, body: unknown, token?: string) => {
      const response = await app.inject({
        method,
        url: `/api/v1${url}`,
        payload: body as object,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });
      if (response.statusCode >= 300)
        throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
      return response.json<Record<string, string>>();
    };
    await send("POST", "/auth/magic-link", { email: "bench@example.com" });
    await deps.mail.flush();
    const [message] = await outboxMessagesFor(config.paths.outbox, "bench@example.com");
    const { access_token: token } = await send("POST", "/auth/verify", {
      token: magicLinkTokenOf(message as string),
    });

    const apps: DatasetApp[] = [];
    for (let p = 0; p < PROJECTS; p += 1) {
      const slug = `tenant-${p}`;
      const project = await send("POST", "/projects", { name: slug, slug }, token);
      const created = await send("POST", `/projects/${slug}/apps`, { name: "api", slug: "api" }, token);
      apps.push({ projectId: project.id as string, appId: created.id as string, share: 1 });
      for (const rule of rulesOf("api")) await send("POST", `/projects/${slug}/alerts`, rule, token);
    }

    const endMs = Date.now();
    const started = performance.now();
    await deps.events.command(requestsSql(deps.events.database, ROWS), datasetParams(apps, endMs));
    await deps.events.command(`OPTIMIZE TABLE ${deps.events.database}.api_requests FINAL`);
    say(
      `loaded       ${ROWS} rows in ${((performance.now() - started) / 1000).toFixed(1)} s (same generator as bench:query)`,
    );

    const grouped: number[] = [];
    let now = endMs + 60_000;
    let summary = await deps.alerts.evaluator.evaluate(new Date(now));
    say(
      `first pass   ${summary.rules} rules, ${summary.groups} statements, ${summary.transitions} state changes`,
    );
    for (let pass = 0; pass < PASSES; pass += 1) {
      now += 60_000;
      const t0 = performance.now();
      summary = await deps.alerts.evaluator.evaluate(new Date(now));
      grouped.push(performance.now() - t0);
    }

    // Baseline: the same rules, one statement each (what grouping saves).
    const rules = await createAlertRulesRepo(deps.metadata.db).listEvaluable();
    const single: number[] = [];
    for (let pass = 0; pass < Math.min(PASSES, 3); pass += 1) {
      const t0 = performance.now();
      for (const rule of rules) {
        const windowEnd = now - 5_050;
        await observe(
          deps.events,
          { projectId: rule.project_id, startMs: windowEnd - rule.window_seconds * 1000, endMs: windowEnd },
          [metricSpecOf(rule)],
        );
      }
      single.push(performance.now() - t0);
    }
    const g = median(grouped);
    const s = median(single);
    say();
    say("| pass                                   | median ms | min ms | statements |");
    say("| -------------------------------------- | --------: | -----: | ---------: |");
    say(
      `| grouped (the evaluator, state written) | ${g.toFixed(0).padStart(9)} | ${Math.min(...grouped)
        .toFixed(0)
        .padStart(6)} | ${String(summary.groups).padStart(10)} |`,
    );
    say(
      `| baseline: one statement per rule       | ${s.toFixed(0).padStart(9)} | ${Math.min(...single)
        .toFixed(0)
        .padStart(6)} | ${String(rules.length).padStart(10)} |`,
    );
    say();
    say(
      `grouped / per-rule: ${(g / s).toFixed(2)}x; target < ${TARGET_MS} ms: ${g < TARGET_MS ? "met" : "MISSED"}`,
    );
    say(`load average at the end: ${load()}`);
  } finally {
    await app.close();
    await deps.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
