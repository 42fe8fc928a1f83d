// SQL building blocks: values only ever as placeholders, LIKE patterns that match literally.
import { describe, expect, it } from "vitest";
import { type RequestFilter, requestFilterClause } from "./request-filter.js";
import { allOf, escapeLike, globToLike, likeCaseInsensitive, SqlParams } from "./sql.js";

describe("like patterns", () => {
  it("folds case with lower() for ASCII patterns and ILIKE otherwise", () => {
    const params = new SqlParams();
    expect(likeCaseInsensitive("path", "/Users/%", params)).toBe("lower(path) LIKE {p0:String}");
    expect(likeCaseInsensitive("path", "/Über/%", params)).toBe("path ILIKE {p1:String}");
    expect(params.values).toEqual({ p0: "/users/%", p1: "/Über/%" });
  });

  it("escapes the engine's escape character and both wildcards", () => {
    expect(escapeLike("100%_done\\x")).toBe("100\\%\\_done\\\\x");
  });

  it("turns only * into a wildcard", () => {
    expect(globToLike("/users/*/orders_%")).toBe("/users/%/orders\\_\\%");
    expect(globToLike("**")).toBe("%%");
  });
});

describe("requestFilterClause", () => {
  it("always confines to the project and binds every value", () => {
    const params = new SqlParams();
    const filter: RequestFilter = {
      projectId: "p' OR 1=1",
      appIds: ["a", "b"],
      since: 0,
      until: 1000,
      environment: "prod'",
      methods: ["GET"],
      statusCodes: [500],
      statusClasses: [4],
      minResponseTimeMs: 1,
      maxResponseTimeMs: 2,
      pathGlob: "/x*",
      routes: ["/r"],
      endpoints: [{ method: "GET", route: "/e" }],
      endpointSearch: "q'",
      consumerId: "c' OR '1",
      traceId: "t'",
    };
    const sql = requestFilterClause(filter, params);
    expect(sql.startsWith("PREWHERE project_id = {p0:String} AND ")).toBe(true);
    // The path as requested: ingest keeps the query string in a column of its own.
    expect(sql).toMatch(
      / WHERE lower\(if\(query = '', path, concat\(path, '\?', query\)\)\) LIKE \{p\d+:String\}$/,
    );
    for (const value of ["OR 1=1", "prod'", "q'", "/x", "c'", "t'"]) expect(sql).not.toContain(value);
    expect(sql).toContain("consumer_id = {p15:String} AND trace_id = {p16:String}");
    expect(sql).toContain(
      "(status_code IN {p6:Array(UInt16)} OR intDiv(status_code, 100) IN {p7:Array(UInt8)})",
    );
    expect(params.values).toMatchObject({
      p0: "p' OR 1=1",
      p1: ["a", "b"],
      p4: "prod'",
      p10: "/x%",
      p15: "c' OR '1",
      p16: "t'",
    });
    expect(params.values.p2).toEqual(new Date(0));
  });

  it("has a condition for an empty app list rather than dropping it", () => {
    const params = new SqlParams();
    expect(requestFilterClause({ projectId: "p", appIds: [] }, params)).toBe(
      "WHERE project_id = {p0:String} AND app_id IN {p1:Array(String)}",
    );
    expect(allOf([])).toBe("1");
  });
});
