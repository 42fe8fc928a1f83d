// @vitest-environment happy-dom
// The API client: the CSRF header on writes only, cookies same-origin, problem+json turned into
// ApiError (detail, request id, field errors, Retry-After), and 401s announced once.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, buildUrl, onUnauthorized, toApiError } from "./api-client";

function problem(
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}

describe("api client", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends the CSRF header on writes, never on reads, always same-origin", async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ ok: true }), { status: 200 });
    });
    await api.get("/projects", { query: { page: 2, skip: undefined } });
    await api.post("/projects", { name: "Shop" });
    await api.delete("/apps/x", { project: "shop" });
    expect(calls.map((call) => call.url)).toEqual([
      "/api/v1/projects?page=2",
      "/api/v1/projects",
      "/api/v1/apps/x?project=shop",
    ]);
    const headers = calls.map((call) => call.init.headers as Record<string, string>);
    expect(headers[0]?.["X-Sightline-CSRF"]).toBeUndefined();
    expect(headers[1]?.["X-Sightline-CSRF"]).toBe("1");
    expect(headers[1]?.["content-type"]).toBe("application/json");
    expect(headers[2]?.["X-Sightline-CSRF"]).toBe("1");
    expect(calls.every((call) => call.init.credentials === "same-origin")).toBe(true);
  });

  it("lets the browser set the multipart boundary for uploads", async () => {
    let seen: RequestInit | undefined;
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      seen = init;
      return new Response("{}", { status: 200 });
    });
    const form = new FormData();
    form.append("file", new Blob(["x"]), "a.png");
    await api.post("/users/me/picture", form);
    expect((seen?.headers as Record<string, string>)["content-type"]).toBeUndefined();
    expect(seen?.body).toBe(form);
  });

  it("turns problem+json into an ApiError with what a person needs", async () => {
    const error = await toApiError(
      problem(
        429,
        {
          error: "rate_limited",
          detail: "Too many sign-in links requested for this e-mail address; wait a minute.",
          request_id: "req-1",
          errors: [{ pointer: "/email", message: "is too eager" }],
        },
        { "retry-after": "42" },
      ),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 429,
      code: "rate_limited",
      requestId: "req-1",
      retryAfterSeconds: 42,
    });
    expect(error.fieldMessage("/email")).toBe("is too eager");
    expect(error.fieldMessage("/name")).toBeUndefined();
  });

  it("keeps the status when a proxy answers something that is not JSON", async () => {
    const error = await toApiError(
      new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" }),
    );
    expect(error).toMatchObject({
      status: 502,
      code: "http_502",
      detail: "The server answered 502 Bad Gateway.",
    });
  });

  it("reports an unreachable server as network_error, and announces every 401", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(api.get("/projects")).rejects.toMatchObject({ status: 0, code: "network_error" });

    const seen: number[] = [];
    const stop = onUnauthorized((error) => seen.push(error.status));
    vi.stubGlobal("fetch", async () => problem(401, { error: "authentication_error", detail: "ended" }));
    await expect(api.get("/users/me")).rejects.toMatchObject({ status: 401 });
    stop();
    await expect(api.get("/users/me")).rejects.toMatchObject({ status: 401 });
    expect(seen).toEqual([401]);
  });

  it("builds query strings without undefined values", () => {
    expect(buildUrl("/x", { a: "1 2", b: undefined, c: true })).toBe("/api/v1/x?a=1+2&c=true");
  });
});
