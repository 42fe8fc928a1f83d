// Which reason a batch refused whole is counted under, for every way ingest refuses one.
import { describe, expect, it } from "vitest";
import { AppError } from "../errors.js";
import { EventsStoreError, WriterClosedError, WriterOverloadedError } from "../stores/events/index.js";
import { rejectReasonOf } from "./ingest.observed.js";

describe("rejectReasonOf", () => {
  it.each([
    [new AppError("validation_error", "all rejected"), "invalid"],
    [
      new AppError("validation_error", "refused", { cause: new EventsStoreError("bad row", "rejected") }),
      "store_refused",
    ],
    [new AppError("payload_too_large", "big"), "too_large"],
    [new AppError("rate_limited", "slow down"), "rate_limited"],
    [new AppError("limit_reached", "quota"), "rate_limited"],
    [
      new AppError("service_unavailable", "full", { cause: new WriterOverloadedError("api_logs") }),
      "overloaded",
    ],
    [
      new AppError("service_unavailable", "closing", { cause: new WriterClosedError("api_logs") }),
      "unavailable",
    ],
    [
      new AppError("service_unavailable", "down", { cause: new EventsStoreError("down", "unavailable") }),
      "unavailable",
    ],
    [new AppError("forbidden", "no"), "other"],
    [new Error("bug"), "other"],
  ] as const)("names why a batch was refused whole (%#)", (error, reason) => {
    expect(rejectReasonOf(error)).toBe(reason);
  });
});
