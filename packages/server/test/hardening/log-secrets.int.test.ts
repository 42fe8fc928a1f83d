// The server's logs never carry what tenants send: an ingest run (requests with headers and
// payloads, logs with messages, spans with attributes, OTLP traces and logs) with one planted
// secret in every field it can hold, plus the error paths (rejected records, bodies that do not
// parse, a key that does not exist, the events store down), and no log line at info or above
// may contain the secret.
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { clientFor } from "../support/client.js";
import { person } from "../support/team.js";
import {
  createIngestFixture,
  type IngestFixture,
  logRecord,
  postIngest,
  requestRecord,
  spanRecord,
} from "../ingest/helpers.js";

const SECRET = "pl4nted-s3cret-9f2c";
const INFO = 30;

interface LogLine {
  readonly level: number;
  readonly msg?: string;
  readonly raw: string;
}

/** Collects the server's log lines as pino writes them. */
function logSink(): { stream: Writable; lines: LogLine[] } {
  const lines: LogLine[] = [];
  let rest = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = rest + chunk.toString("utf8");
      const parts = text.split("\n");
      rest = parts.pop() ?? "";
      for (const raw of parts.filter((part) => part !== "")) {
        const parsed = JSON.parse(raw) as { level: number; msg?: string };
        lines.push({ level: parsed.level, msg: parsed.msg, raw });
      }
      done();
    },
  });
  return { stream, lines };
}

const nanos = (date: Date) => `${BigInt(date.getTime()) * 1_000_000n}`;
const stringAttribute = (key: string) => ({ key, value: { stringValue: `${key} ${SECRET}` } });

describe("server logs at info and above", () => {
  let ctx: TestContext;
  let fx: IngestFixture;
  const sink = logSink();

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { LOG_LEVEL: "info", INGEST_FLUSH_INTERVAL_MS: "1" },
      logDestination: sink.stream,
    });
    fx = await createIngestFixture(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const post = (kind: "requests" | "logs" | "traces", body: unknown, key = fx.projectKey) =>
    postIngest(ctx, kind, body, { key, headers: { "user-agent": `agent ${SECRET}` } });
  const postOtlp = (signal: "traces" | "logs", body: string | object, type = "application/json") =>
    ctx.app.inject({
      method: "POST",
      url: `/api/v1/otlp/v1/${signal}`,
      headers: { "content-type": type, "x-api-key": fx.projectKey },
      payload: typeof body === "string" ? body : JSON.stringify(body),
    });

  it("carry no personal access token, used, refused or revoked", async () => {
    const owner = await person(ctx, "owner@log-secrets.test");
    expect((await owner.client.post("/api/v1/projects", { name: "Logged", slug: "logged" })).statusCode).toBe(
      201,
    );
    const created = await owner.client.post("/api/v1/users/me/tokens", {
      name: "script",
      scope: "read-write",
      expires_in_days: null,
    });
    expect(created.statusCode).toBe(201);
    const { id, token } = created.json<{ id: string; token: string }>();
    const client = clientFor(ctx.app, { authorization: `Bearer ${token}` });
    const from = sink.lines.length;
    expect((await client.get("/api/v1/users/me")).statusCode).toBe(200);
    expect((await client.post("/api/v1/projects/logged/apps", { name: "Logged app" })).statusCode).toBe(201);
    expect((await client.get("/api/v1/users/me/tokens")).statusCode).toBe(403);
    expect((await client.patch("/api/v1/projects/logged", { slug: "NOT A SLUG" })).statusCode).toBe(422);
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(
      (await clientFor(ctx.app, { authorization: `Bearer ${tampered}` }).get("/api/v1/users/me")).statusCode,
    ).toBe(401);
    expect((await owner.client.delete(`/api/v1/users/me/tokens/${id}`)).statusCode).toBe(200);
    expect((await client.get("/api/v1/users/me")).statusCode).toBe(401);

    const seen = sink.lines.slice(from);
    expect(seen.filter((line) => line.msg === "request completed").length).toBeGreaterThanOrEqual(7);
    const secretPart = token.slice("sl_pat_".length + 8);
    expect(seen.filter((line) => line.raw.includes(secretPart)).map((line) => line.raw)).toEqual([]);
  });

  it("carry none of an ingest run's contents, accepted or refused", async () => {
    const marked = (field: string) => `${field} ${SECRET}`;
    const request = requestRecord({
      path: `/orders/${SECRET}?token=${SECRET}`,
      user_agent: marked("ua"),
      ip_address: "203.0.113.7",
      consumer_id: marked("consumer"),
      consumer_name: marked("name"),
      consumer_group: marked("group"),
      request_payload: JSON.stringify({ card: SECRET }),
      response_payload: JSON.stringify({ echo: SECRET }),
      request_headers: { authorization: `Bearer ${SECRET}`, "x-custom": SECRET },
      response_headers: { "set-cookie": `sid=${SECRET}` },
      base_url: `https://${SECRET}.example`,
    });
    const accepted = await post("requests", { requests: [request] });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const logs = await post("logs", {
      logs: [
        logRecord({
          message: marked("message"),
          logger_name: marked("logger"),
          payload: JSON.stringify({ secret: SECRET }),
          attributes: { note: SECRET },
        }),
      ],
    });
    expect(logs.statusCode, logs.body).toBe(200);
    const spans = await post("traces", {
      spans: [spanRecord({ name: marked("span"), attributes: { "db.statement": `SELECT '${SECRET}'` } })],
    });
    expect(spans.statusCode, spans.body).toBe(200);

    const start = new Date(Date.now() - 1000);
    const otlpTraces = await postOtlp("traces", {
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
          scopeSpans: [
            {
              scope: { name: marked("scope") },
              spans: [
                {
                  traceId: "5b8efff798038103d269b633813fc60c",
                  spanId: "eee19b7ec3c1b174",
                  name: marked("otlp span"),
                  kind: 2,
                  startTimeUnixNano: nanos(start),
                  endTimeUnixNano: nanos(new Date(start.getTime() + 25)),
                  attributes: [
                    { key: "http.request.method", value: { stringValue: "GET" } },
                    { key: "url.path", value: { stringValue: `/pay/${SECRET}` } },
                    { key: "http.response.status_code", value: { intValue: 200 } },
                    stringAttribute("user.secret"),
                  ],
                  status: { message: marked("status") },
                },
              ],
            },
          ],
        },
      ],
    });
    expect(otlpTraces.statusCode, otlpTraces.body).toBe(200);
    const otlpLogs = await postOtlp("logs", {
      resourceLogs: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
          scopeLogs: [
            {
              logRecords: [
                {
                  timeUnixNano: nanos(start),
                  severityText: "ERROR",
                  body: { stringValue: marked("otlp body") },
                  attributes: [stringAttribute("log.secret")],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(otlpLogs.statusCode, otlpLogs.body).toBe(200);

    // Refused: a record that fails validation, bodies that do not parse, an unknown key.
    const rejected = await post("requests", {
      requests: [
        { ...request, status_code: 999 },
        { ...request, app_id: `no-app-${SECRET}` },
      ],
    });
    expect(rejected.statusCode).toBeGreaterThanOrEqual(400);
    expect((await post("logs", `{"logs": [${SECRET}`)).statusCode).toBe(400);
    expect((await post("logs", { logs: [logRecord({ message: SECRET })] }, `sl_${SECRET}`)).statusCode).toBe(
      401,
    );
    expect((await postOtlp("traces", `not protobuf ${SECRET}`, "application/x-protobuf")).statusCode).toBe(
      400,
    );
    expect((await postOtlp("logs", `{"resourceLogs": "${SECRET}"}`)).statusCode).toBe(400);

    // The events store fails: the insert error must not quote the rows it could not store.
    await ctx.deps.events.close();
    const down = await post("logs", { logs: [logRecord({ message: marked("while down") })] });
    expect(down.statusCode).toBe(503);

    const seen = sink.lines.filter((line) => line.level >= INFO);
    // The capture works: every request was logged, and the failure was.
    expect(seen.filter((line) => line.msg === "request completed").length).toBeGreaterThanOrEqual(11);
    expect(seen.some((line) => line.level > INFO)).toBe(true);
    expect(seen.filter((line) => line.raw.includes(SECRET)).map((line) => line.raw)).toEqual([]);
  });
});
