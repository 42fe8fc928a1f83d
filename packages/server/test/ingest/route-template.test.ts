// Route templates from raw paths and from framework spellings: which segments are identifiers.
import { describe, expect, it } from "vitest";
import {
  deriveRouteTemplate,
  isIdentifierSegment,
  normaliseRouteTemplate,
} from "../../src/modules/ingest/route-template.js";

describe("deriveRouteTemplate", () => {
  it.each([
    ["/users/1", "/users/{id}"],
    ["/users/2", "/users/{id}"],
    ["/users/42/orders/7", "/users/{id}/orders/{id}"],
    ["/orders/8c5f9a1e-0b2d-4c3e-9f1a-2b3c4d5e6f70", "/orders/{id}"],
    ["/orders/8C5F9A1E-0B2D-4C3E-9F1A-2B3C4D5E6F70/items", "/orders/{id}/items"],
    ["/objects/507f1f77bcf86cd799439011", "/objects/{id}"],
    ["/commits/da39a3ee5e6b4b0d3255bfef95601890afd80709", "/commits/{id}"],
    ["/blobs/a1b2c3d4", "/blobs/{id}"],
    ["/files/dXNlcjoxMjM0NTY3ODkwYWJj", "/files/{id}"],
    ["/keys/AKIAIOSFODNN7EXAMPLE", "/keys/{id}"],
    ["/customers/cus_NffrFeUfNV2Hib", "/customers/{id}"],
    ["/users/ada@example.com/settings", "/users/{id}/settings"],
    ["/reports/2026-11-21", "/reports/{id}"],
    ["/users/42?page=2&sort=name", "/users/{id}"],
    ["/users/42#top", "/users/{id}"],
    ["/users//42/", "/users/{id}"],
    ["/", "/"],
    ["/?q=1", "/"],
  ])("%s -> %s", (path, template) => {
    expect(deriveRouteTemplate(path)).toBe(template);
  });

  it.each([
    "/api/v1/users",
    "/health",
    "/cafe/menu",
    "/feed/deadbeef",
    "/blog/how-to-build-an-api-in-2024",
    "/services/authentication-service-v2",
    "/oauth2/callback",
    "/v2/me",
  ])("keeps %s as it is", (path) => {
    expect(deriveRouteTemplate(path)).toBe(path);
  });

  it("is not fooled by segments that merely contain digits", () => {
    expect(isIdentifierSegment("v1")).toBe(false);
    expect(isIdentifierSegment("page2")).toBe(false);
    expect(isIdentifierSegment("ipv6")).toBe(false);
    expect(isIdentifierSegment("0")).toBe(true);
  });
});

describe("normaliseRouteTemplate", () => {
  it.each([
    ["/users/{id}", "/users/{id}"],
    ["/users/:id", "/users/{id}"],
    ["/users/:userId/orders/:orderId?", "/users/{userId}/orders/{orderId}"],
    ["/files/:name(\\d+)", "/files/{name}"],
    ["/users/<int:user_id>", "/users/{user_id}"],
    ["/users/<slug>", "/users/{slug}"],
    ["/items/{item_id:int}", "/items/{item_id}"],
    ["users/{id}/", "/users/{id}"],
    ["/docs/*", "/docs/*"],
  ])("%s -> %s", (route, template) => {
    expect(normaliseRouteTemplate(route)).toBe(template);
  });
});
