import { describe, expect, it } from "vitest";
import { EventsStoreError } from "./executor.js";
import { assertSupportedVersion, compareVersions, MINIMUM_CLICKHOUSE_VERSION } from "./server-version.js";

describe("ClickHouse server version floor", () => {
  it("orders versions by number, not text", () => {
    expect(compareVersions("24.10.1.1", "24.3")).toBeGreaterThan(0);
    expect(compareVersions("24.3.14.39", "24.3")).toBeGreaterThan(0);
    expect(compareVersions("24.3", "24.3.0.0")).toBe(0);
    expect(compareVersions("9.1", "24.3")).toBeLessThan(0);
    expect(compareVersions("23.12.6.19", "24.3")).toBeLessThan(0);
  });

  it("accepts the floor itself and anything newer", () => {
    expect(() => assertSupportedVersion(MINIMUM_CLICKHOUSE_VERSION)).not.toThrow();
    expect(() => assertSupportedVersion("26.7.2.1")).not.toThrow();
  });

  it("refuses an older server, naming the version found and the one needed", () => {
    const error = (() => {
      try {
        assertSupportedVersion("23.3.22.3");
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(EventsStoreError);
    expect((error as EventsStoreError).message).toContain("23.3.22.3");
    expect((error as EventsStoreError).message).toContain(`${MINIMUM_CLICKHOUSE_VERSION} or newer`);
  });

  it("refuses an answer that is not a version", () => {
    expect(() => assertSupportedVersion("<html>")).toThrow(
      `Sightline needs ClickHouse ${MINIMUM_CLICKHOUSE_VERSION} or newer`,
    );
  });
});
