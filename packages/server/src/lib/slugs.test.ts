// Unit tests of slug generation and validation.
import { describe, expect, it } from "vitest";
import { firstFreeSlug, isValidSlug, RESERVED_PROJECT_SLUGS, slugify } from "./slugs.js";

describe("slugify", () => {
  it.each([
    ["Checkout API", "checkout-api"],
    ["  Café Crème — v2!  ", "cafe-creme-v2"],
    ["---", "project"],
    ["日本語", "project"],
    ["a".repeat(80), "a".repeat(64)],
    [`${"a".repeat(63)} b`, "a".repeat(63)],
  ])("turns %j into %j", (name, slug) => {
    expect(slugify(name, "project")).toBe(slug);
    expect(isValidSlug(slug)).toBe(true);
  });
});

describe("isValidSlug", () => {
  it.each(["a", "a-b", "a1-2b", "x".repeat(64)])("accepts %j", (slug) =>
    expect(isValidSlug(slug)).toBe(true),
  );
  it.each(["", "-a", "a-", "A", "a_b", "a b", "x".repeat(65), "é"])("rejects %j", (slug) =>
    expect(isValidSlug(slug)).toBe(false),
  );
});

describe("firstFreeSlug", () => {
  it("adds the first free numeric suffix and skips reserved words", async () => {
    const taken = new Set(["shop", "shop-2"]);
    expect(await firstFreeSlug("shop", RESERVED_PROJECT_SLUGS, async (s) => taken.has(s))).toBe("shop-3");
    expect(await firstFreeSlug("settings", RESERVED_PROJECT_SLUGS, async () => false)).toBe("settings-2");
  });

  it("keeps suffixed slugs within 64 characters", async () => {
    const base = "b".repeat(64);
    const slug = await firstFreeSlug(base, RESERVED_PROJECT_SLUGS, async (s) => s === base);
    expect(slug).toBe(`${"b".repeat(62)}-2`);
    expect(isValidSlug(slug)).toBe(true);
  });
});
