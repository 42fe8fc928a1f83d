// Route templates from each router's syntax and from Next.js route files.
import { describe, expect, it } from "vitest";
import { pickRoute, routeFromParams, routesFromAppFile, toTemplate } from "../src/capture/route.js";

describe("toTemplate", () => {
  it.each([
    ["/orders/:id", "/orders/{id}"],
    ["/orders/:id?", "/orders/{id}"],
    ["/orders/:id(\\d+)/lines/:line", "/orders/{id}/lines/{line}"],
    ["/posts/:id{[0-9]+}", "/posts/{id}"],
    ["/files/*path", "/files/{path}"],
    ["/users{/:id}", "/users/{id}"],
    ["/orders/{id}", "/orders/{id}"],
    ["orders/:id/", "/orders/{id}"],
    ["/", "/"],
    ["/static/*", "/static/*"],
  ])("%s -> %s", (pattern, template) => {
    expect(toTemplate(pattern)).toBe(template);
  });

  it("gives nothing for nothing", () => {
    expect(toTemplate(undefined)).toBeUndefined();
    expect(toTemplate("")).toBeUndefined();
  });
});

describe("Next.js route files", () => {
  it.each([
    ["file:///srv/shop/app/orders/%5Bid%5D/route.js", ["/orders/{id}"]],
    ["/srv/shop/src/app/(shop)/orders/[id]/lines/[...rest]/route.ts", ["/orders/{id}/lines/{rest}"]],
    ["/srv/shop/app/docs/[[...slug]]/@modal/route.ts", ["/docs/{slug}"]],
    ["C:\\shop\\app\\health\\route.ts", ["/health"]],
    ["/home/app/shop/app/app/route.js", ["/", "/app", "/shop/app/app"]],
    ["/srv/shop/app/orders/page.tsx", []],
  ])("%s", (file, routes) => {
    expect(routesFromAppFile(file)).toEqual(routes);
  });

  it("picks the candidate that fits the request path", () => {
    expect(pickRoute(["/", "/app", "/shop/app/app"], "/app")).toBe("/app");
    expect(pickRoute(["/{id}", "/x/{id}"], "/x/7")).toBe("/x/{id}");
    expect(pickRoute(["/only"], "/whatever")).toBe("/only");
  });

  it("rebuilds a route from the path and the handler's params", () => {
    expect(routeFromParams("/orders/42/lines/7", { id: "42", line: "7" })).toBe("/orders/{id}/lines/{line}");
    expect(routeFromParams("/docs/a/b/c", { slug: ["a", "b", "c"] })).toBe("/docs/{slug}");
    expect(routeFromParams("/users/users", { name: "users" })).toBe("/users/{name}");
    expect(routeFromParams("/caf%C3%A9/1", { place: "café", n: "1" })).toBe("/{place}/{n}");
  });
});
