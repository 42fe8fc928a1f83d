// The events DDL as text: every statement the migrations issue on a fresh store, per topology.
// Single node must stay byte-for-byte what it was before clusters existed (the snapshot file was
// recorded from that code); cluster modes are checked for what each statement must carry.
import { describe, expect, it } from "vitest";
import { recordMigrationDdl } from "./ddl-recorder.js";

describe("events DDL text", () => {
  it("single node: unchanged, statement for statement", async () => {
    const statements = await recordMigrationDdl({ kind: "single" });
    await expect(statements.join(";\n\n") + ";\n").toMatchFileSnapshot("./__snapshots__/single-node.sql");
  });
});
