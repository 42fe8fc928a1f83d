import { describe, expect, it } from "vitest";
import { errorFingerprint, errorTypeOf, inAppFrames, normaliseErrorMessage } from "./error-fingerprint.js";

const STACK = [
  "TypeError: Cannot read properties of undefined (reading 'id')",
  "    at loadOrder (/srv/app/dist/orders/load.js:41:17)",
  "    at async handler (/srv/app/dist/routes/orders.js:12:5)",
  "    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)",
  "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
  "    at main (file:///srv/app/dist/server.js:3:1)",
  "    at other (/srv/app/dist/other.js:3:1)",
].join("\n");

const error = (message: string, payload = STACK, errorType?: string) => ({
  level: "ERROR",
  message,
  payload,
  errorType,
});

describe("normaliseErrorMessage", () => {
  it("masks numbers, uuids, hex ids and quoted values", () => {
    expect(
      normaliseErrorMessage(
        `Order 1234 of user "ann" not found (ref 3f2b8c1e-4d5a-4b6c-9d7e-0a1b2c3d4e5f, obj 507f1f77bcf86cd799439011, at 0xdeadBEEF) in 12.5 ms`,
      ),
    ).toBe("Order <n> of user <str> not found (ref <uuid>, obj <hex>, at <hex>) in <n> ms");
  });

  it("keeps words that merely look hex-ish and collapses blanks", () => {
    expect(normaliseErrorMessage("  deadbeef   facade\n'x'  ")).toBe("deadbeef facade <str>");
  });
});

describe("errorTypeOf", () => {
  it("prefers the declared type, else reads a class-name prefix", () => {
    expect(errorTypeOf("boom", "RangeError")).toBe("RangeError");
    expect(errorTypeOf("ValidationException: bad")).toBe("ValidationException");
    expect(errorTypeOf("Error: payment declined")).toBe("Error");
    expect(errorTypeOf("payment failed: card declined")).toBe("");
  });
});

describe("inAppFrames", () => {
  it("keeps the top in-app frames without line numbers, skipping dependencies and internals", () => {
    expect(inAppFrames(STACK)).toEqual([
      "loadOrder@orders/load.js",
      "handler@routes/orders.js",
      "main@dist/server.js",
    ]);
  });

  it("reads the stack inside a logger's JSON payload", () => {
    const payload = JSON.stringify({ err: { name: "Error", message: "x", stack: STACK } });
    expect(inAppFrames(payload, 1)).toEqual(["loadOrder@orders/load.js"]);
  });

  it("finds no frames in a payload without a stack", () => {
    expect(inAppFrames('{"order":1}')).toEqual([]);
    expect(inAppFrames("{not json")).toEqual([]);
  });
});

describe("errorFingerprint", () => {
  it("is empty for records that are not errors", () => {
    expect(errorFingerprint({ level: "WARNING", message: "slow", payload: "" })).toBe("");
    expect(errorFingerprint({ level: "INFO", message: "TypeError: x", payload: STACK })).toBe("");
  });

  it("groups occurrences that differ only in data, line numbers and deploy directory", () => {
    const a = errorFingerprint(error("TypeError: order 17 missing"));
    const b = errorFingerprint(
      error(
        "TypeError: order 9921 missing",
        STACK.replaceAll("/srv/app/", "/home/ci/build/").replace(":41:17", ":44:3"),
      ),
    );
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(b).toBe(a);
    expect(errorFingerprint({ ...error("TypeError: order 1 missing"), level: "CRITICAL" })).toBe(a);
  });

  it("splits on the type, the message's words and the throw site", () => {
    const base = errorFingerprint(error("TypeError: order 17 missing"));
    expect(errorFingerprint(error("RangeError: order 17 missing"))).not.toBe(base);
    expect(errorFingerprint(error("TypeError: customer 17 missing"))).not.toBe(base);
    expect(
      errorFingerprint(error("TypeError: order 17 missing", STACK.replace("loadOrder", "saveOrder"))),
    ).not.toBe(base);
  });

  it("takes the declared type over the message's prefix", () => {
    expect(errorFingerprint(error("order 17 missing", STACK, "TypeError"))).toBe(
      errorFingerprint(error("TypeError: order 17 missing")),
    );
  });
});
