import { describe, expect, it } from "vitest";
import { parseServerError } from "./http.driver.js";

describe("ClickHouse server error bodies", () => {
  it("reads the code and name of the current format", () => {
    const body =
      "Code: 60. DB::Exception: Unknown table expression identifier 'nosuch' in scope SELECT 1 FROM nosuch. " +
      "(UNKNOWN_TABLE) (version 26.7.2.1)\n";
    expect(parseServerError(body)).toEqual({ code: 60, name: "UNKNOWN_TABLE" });
  });

  it("reads the code of older formats, which carry no name", () => {
    expect(
      parseServerError(
        "Code: 115, e.displayText() = DB::Exception: Unknown setting date_time_output_format " +
          "(version 20.3.21.2 (official build))\n",
      ),
    ).toEqual({ code: 115, name: undefined });
    expect(parseServerError("Code: 115. DB::Exception: Unknown setting date_time_output_format")).toEqual({
      code: 115,
      name: undefined,
    });
  });

  it("leaves anything else alone", () => {
    expect(parseServerError("<html><body>502 Bad Gateway</body></html>")).toBeUndefined();
    expect(parseServerError("Error code: 12")).toBeUndefined();
  });
});
