// The transport's pure rules: the bounded queue, retry timing and Retry-After, redaction.
import { describe, expect, it } from "vitest";
import { clientIp } from "../src/capture/client-ip.js";
import { captureBody, captureHeaders, cutUtf8, DEFAULT_BODY_KEYS } from "../src/capture/redact.js";
import { traceIdFrom } from "../src/capture/trace.js";
import { BoundedQueue } from "../src/transport/queue.js";
import { backoffDelay, isRetryable, parseRetryAfter } from "../src/transport/retry.js";

describe("BoundedQueue", () => {
  it("drops the oldest item to make room, and says so", () => {
    const queue = new BoundedQueue<number>(3);
    expect([1, 2, 3].map((n) => queue.push(n))).toEqual([false, false, false]);
    expect(queue.push(4)).toBe(true);
    expect(queue.take(10)).toEqual([2, 3, 4]);
    expect(queue.length).toBe(0);
    queue.push(5);
    expect(queue.take(1)).toEqual([5]);
  });
});

describe("retries", () => {
  it("retries what says 'later', not what says 'never'", () => {
    expect([408, 429, 502, 503, 504].every(isRetryable)).toBe(true);
    expect([400, 401, 403, 404, 409, 413, 422, 500].some(isRetryable)).toBe(false);
  });

  it("doubles the delay up to the cap, with jitter in the upper half", () => {
    expect(backoffDelay(0, 500, 30_000, () => 0)).toBe(250);
    expect(backoffDelay(0, 500, 30_000, () => 1)).toBe(500);
    expect(backoffDelay(3, 500, 30_000, () => 1)).toBe(4000);
    expect(backoffDelay(20, 500, 30_000, () => 1)).toBe(30_000);
  });

  it("reads Retry-After as seconds or as a date", () => {
    const now = Date.parse("2026-11-21T06:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 06:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe("redaction", () => {
  const rules = {
    headerPatterns: ["X-Tenant-Token", /^x-internal-/],
    bodyKeys: DEFAULT_BODY_KEYS,
    maxBodyBytes: 64,
  };

  it("always replaces credential headers, and the configured ones", () => {
    expect(
      captureHeaders(
        [
          ["Authorization", "Bearer x"],
          ["Cookie", "a=b"],
          ["set-cookie", ["a=b", "c=d"]],
          ["x-api-key", "sl_1"],
          ["proxy-authorization", "Basic y"],
          ["x-tenant-token", "t"],
          ["x-internal-id", "i"],
          ["accept", "text/html"],
        ],
        rules,
      ),
    ).toEqual({
      authorization: "[REDACTED]",
      cookie: "[REDACTED]",
      "set-cookie": "[REDACTED]",
      "x-api-key": "[REDACTED]",
      "proxy-authorization": "[REDACTED]",
      "x-tenant-token": "[REDACTED]",
      "x-internal-id": "[REDACTED]",
      accept: "text/html",
    });
  });

  it("masks secret-looking keys at any depth and keeps only JSON and text", () => {
    const body = {
      user: { name: "ada", Password: "p", apiKey: "k", api_key: "k" },
      items: [{ card_number: "4242" }],
    };
    expect(JSON.parse(captureBody(body, "application/json", { ...rules, maxBodyBytes: 1000 }))).toEqual({
      user: { name: "ada", Password: "[REDACTED]", apiKey: "[REDACTED]", api_key: "[REDACTED]" },
      items: [{ card_number: "[REDACTED]" }],
    });
    expect(captureBody("token=abc&q=1", "application/x-www-form-urlencoded", rules)).toBe(
      "token=%5BREDACTED%5D&q=1",
    );
    expect(captureBody(Buffer.from([1, 2, 3]), "application/octet-stream", rules)).toBe("");
    expect(captureBody('{"password": "cut', "application/json", rules)).toBe("");
    expect(Buffer.byteLength(captureBody("é".repeat(100), "text/plain", rules))).toBeLessThanOrEqual(64);
  });

  it("never sends a lone surrogate", () => {
    expect(cutUtf8("ok \ud83d", 100)).toBe("ok \ufffd");
  });

  it("never cuts a character in half", () => {
    expect(cutUtf8("aé😀", 3)).toBe("aé");
    expect(cutUtf8("a😀", 4)).toBe("a");
  });
});

describe("client address and trace context", () => {
  it("believes X-Forwarded-For only as far as trustProxy says", () => {
    expect(clientIp("::ffff:10.0.0.2", "203.0.113.7, 10.0.0.1", false)).toBe("10.0.0.2");
    expect(clientIp("10.0.0.2", "203.0.113.7, 10.0.0.1", true)).toBe("203.0.113.7");
    expect(clientIp("10.0.0.2", "198.51.100.1, 203.0.113.7, 10.0.0.1", 2)).toBe("203.0.113.7");
    expect(clientIp("10.0.0.2", undefined, true)).toBe("10.0.0.2");
  });

  it("continues valid traceparents only", () => {
    expect(traceIdFrom("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBe(
      "4bf92f3577b34da6a3ce929d0e0e4736",
    );
    expect(traceIdFrom("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBeUndefined();
    expect(traceIdFrom("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBeUndefined();
    expect(traceIdFrom("garbage")).toBeUndefined();
  });
});
