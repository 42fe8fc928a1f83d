// Lone UTF-16 surrogates (`"\ud83d"`, a string cut in the middle of an emoji) in JSON bodies:
// every route sees U+FFFD instead, so a batch carrying one is stored whole and a metadata name
// carrying one meets the uniqueness checks like any other name.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import {
  createIngestFixture,
  type IngestFixture,
  logRecord,
  requestRecord,
  storedRows,
} from "../ingest/helpers.js";

/** A JSON text with literal `\ud83d` escapes: JSON.stringify would keep them, but spelling them
 *  out shows what travels on the wire. */
const LONE_HIGH = "\\ud83d";
const LONE_LOW = "\\ude00";

function postRaw(ctx: TestContext, url: string, text: string, headers: Record<string, string>) {
  return ctx.app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/json", ...headers },
    payload: text,
  });
}

describe.each(metadataBackends())("lone surrogates on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let fx: IngestFixture;
  let owner: { authorization: string };

  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend });
    fx = await createIngestFixture(ctx);
    owner = (await signIn(ctx, "owner@example.com")).headers;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("stores a request batch whose strings and header names carry lone surrogates, whole", async () => {
    const marker = `lone-${Date.now()}`;
    const good = JSON.stringify(requestRecord({ path: `/${marker}/ok`, consumer_id: marker }));
    const bad = JSON.stringify(
      requestRecord({
        path: `/${marker}/cut-PLACEHOLDER`,
        consumer_id: marker,
        user_agent: "ua-PLACEHOLDER",
      }),
    ).replaceAll("PLACEHOLDER", LONE_HIGH);
    const headers = `{"x-cut-${LONE_LOW}":"v${LONE_HIGH}"}`;
    const withHeaders = JSON.stringify(
      requestRecord({ path: `/${marker}/headers`, consumer_id: marker, request_headers: {} }),
    ).replace('"request_headers":{}', `"request_headers":${headers}`);
    const response = await postRaw(
      ctx,
      "/api/v1/ingest/requests",
      `{"requests":[${good},${bad},${withHeaders}]}`,
      { "x-api-key": fx.projectKey },
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ accepted: 3, rejected: 0, errors: [] });

    const rows = await storedRows<{ path: string; user_agent: string; request_headers: string }>(
      ctx,
      "api_requests",
      `consumer_id = '${marker}'`,
    );
    expect(rows.map((row) => row.path).sort()).toEqual(
      [`/${marker}/cut-\ufffd`, `/${marker}/headers`, `/${marker}/ok`].sort(),
    );
    expect(rows.find((row) => row.path.endsWith("cut-\ufffd"))?.user_agent).toBe("ua-\ufffd");
    expect(JSON.parse(rows.find((row) => row.path.endsWith("/headers"))?.request_headers ?? "{}")).toEqual({
      "x-cut-\ufffd": "v\ufffd",
    });
  });

  it("stores a log batch whose message and attribute keys carry lone surrogates", async () => {
    const marker = `log-${Date.now()}`;
    const text = JSON.stringify(
      logRecord({ message: `${marker} PLACEHOLDER`, attributes: { kPLACEHOLDER: "x" } }),
    ).replaceAll("PLACEHOLDER", LONE_HIGH);
    const response = await postRaw(ctx, "/api/v1/ingest/logs", `{"logs":[${text}]}`, {
      "x-api-key": fx.projectKey,
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = await storedRows<{ message: string; attributes: Record<string, string> }>(
      ctx,
      "api_logs",
      `startsWith(message, '${marker}')`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.message).toBe(`${marker} \ufffd`);
    expect(rows[0]?.attributes).toEqual({ "k\ufffd": "x" });
  });

  it("answers 409, not 500, for a second environment whose name differs only by a lone surrogate", async () => {
    const url = `/api/v1/apps/${fx.checkout.slug}/environments`;
    const first = await postRaw(ctx, url, `{"name":"edge-${LONE_HIGH}","slug":"edge-one"}`, owner);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<{ name: string }>().name).toBe("edge-\ufffd");
    const second = await postRaw(ctx, url, `{"name":"edge-${LONE_LOW}","slug":"edge-two"}`, owner);
    expectProblem(second, "conflict");
  });

  it("keeps a project name with a lone surrogate readable: stored and answered as U+FFFD", async () => {
    const response = await postRaw(ctx, "/api/v1/projects", `{"name":"Cut ${LONE_HIGH}"}`, owner);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ name: string }>().name).toBe("Cut \ufffd");
  });
});
