// The API section's pure parts: its URL state, how an uploaded file's media type is told, and
// the links to the inferred document and to the reference viewer opened on it.
import { describe, expect, it } from "vitest";
import { documentMediaType, documentUrl, viewerUrl } from "./api";
import { validateApiSearch } from "./api-search";

describe("the API section", () => {
  it("keeps only well-formed URL state", () => {
    expect(
      validateApiSearch({ app: "checkout", environment: "production", breaking: "breaking", page: "2" }),
    ).toEqual({
      app: "checkout",
      environment: "production",
      breaking: "breaking",
      page: 2,
    });
    expect(validateApiSearch({ app: "", breaking: "yes", page: "0" })).toEqual({
      app: undefined,
      environment: undefined,
      breaking: undefined,
      page: undefined,
    });
  });

  it("sends a declared document as YAML or JSON by its name, else by its first character", () => {
    expect(documentMediaType("api.yaml", "{}")).toBe("application/yaml");
    expect(documentMediaType("api.YML", "openapi: 3.1.0")).toBe("application/yaml");
    expect(documentMediaType("api.json", '{"openapi":"3.1.0"}')).toBe("application/json");
    expect(documentMediaType("spec", '  {"openapi":"3.1.0"}')).toBe("application/json");
    expect(documentMediaType("spec", "openapi: 3.1.0")).toBe("application/yaml");
  });

  it("links the document and the viewer opened on it, same-origin", () => {
    const scope = { app: "check out", environment: "prod&eu" };
    expect(documentUrl("shop", scope, "yaml")).toBe(
      "/api/v1/projects/shop/api/contract?app=check+out&environment=prod%26eu&format=yaml",
    );
    const viewer = new URL(viewerUrl("shop", scope), "http://127.0.0.1");
    expect(viewer.pathname).toBe("/api/v1/docs/");
    expect(viewer.searchParams.get("url")).toBe(
      "/api/v1/projects/shop/api/contract?app=check+out&environment=prod%26eu",
    );
  });
});
