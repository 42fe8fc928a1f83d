// Errors in log lines: an events-store failure never brings the rows it quotes into the logs.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors.js";
import { createLogger } from "../logger.js";
import { EventsStoreError } from "../stores/events/executor.js";

const SECRET = "row-secret-5d1e";

function captured(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString("utf8")
          .split("\n")
          .filter((line) => line !== ""),
      );
      done();
    },
  });
  return { lines, stream };
}

/** What the chDB driver throws when the engine refuses an insert, wrapped as ingest wraps it. */
function failedInsert(): AppError {
  const engine = Object.assign(new Error(`Code: 27. Cannot parse input: expected ',' before: '${SECRET}'`), {
    clickhouseCode: 27,
  });
  const store = new EventsStoreError("Events store insert failed (code 27, CANNOT_PARSE_INPUT)", "query", {
    cause: engine,
    clickhouseCode: 27,
    engineError: "CANNOT_PARSE_INPUT",
    failedAtRow: 3,
    sql: `INSERT INTO sightline.api_logs (message) VALUES ('${SECRET}')`,
  });
  return new AppError("internal_error", "Something went wrong.", { cause: store });
}

describe("errors in log lines", () => {
  it("never quote what an events-store failure says of the rows, but keep its facts", () => {
    const { lines, stream } = captured();
    const logger = createLogger("info", stream);
    logger.error({ err: failedInsert() }, "request failed");
    logger.error({ err: failedInsert().cause }, "insert failed");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain(SECRET);
    const [first, second] = lines.map((line) => JSON.parse(line) as { err: Record<string, unknown> });
    expect(first?.err).toMatchObject({
      type: "AppError",
      code: "internal_error",
      message: "Something went wrong.: Events store insert failed (code 27, CANNOT_PARSE_INPUT)",
    });
    expect(second?.err).toMatchObject({
      type: "EventsStoreError",
      kind: "query",
      clickhouseCode: 27,
      engineError: "CANNOT_PARSE_INPUT",
      failedAtRow: 3,
    });
  });

  it("write other errors as pino does, causes included", () => {
    const { lines, stream } = captured();
    createLogger("info", stream).error({ err: new Error("outer", { cause: new Error("inner") }) }, "x");
    expect(JSON.parse(lines[0] as string)).toMatchObject({ err: { type: "Error", message: "outer: inner" } });
  });
});
