import { describe, expect, it } from "vitest";
import { acceptsGzip } from "./download.js";

describe("acceptsGzip", () => {
  it("accepts gzip in any list position and case, refuses q=0 and absence", () => {
    expect(acceptsGzip("gzip")).toBe(true);
    expect(acceptsGzip("br;q=1.0, GZIP;q=0.5, deflate")).toBe(true);
    expect(acceptsGzip("x-gzip")).toBe(true);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("br, deflate")).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
