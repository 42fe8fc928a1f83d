// @vitest-environment happy-dom
// Small pieces behind the team pages: the audit log's details in words, the page number from
// the URL, and the way back to an invitation after a sign-in finished in another tab.
import { afterEach, describe, expect, it } from "vitest";
import { describeDetails } from "../features/team/AuditLogPage";
import { ApiError } from "./api-client";
import { keys } from "./queries";
import { createQueryClient } from "./query-client";
import { rememberReturnTo, takeReturnTo } from "./return-to";
import { positiveInt } from "./search";

describe("audit details", () => {
  it("reads a change as from → to, and other fields by name", () => {
    expect(describeDetails({ from: "viewer", to: "admin" })).toBe("viewer → admin");
    expect(describeDetails({ fields: ["name", "description"] })).toBe("fields: name, description");
    expect(describeDetails({ reason: "account_deleted", from: "admin", to: "owner" })).toBe(
      "admin → owner; reason: account_deleted",
    );
    expect(describeDetails({})).toBe("");
  });
});

describe("page numbers from the URL", () => {
  it("keep whole numbers from 1 up and drop the rest", () => {
    expect(positiveInt("3")).toBe(3);
    expect(positiveInt(2)).toBe(2);
    for (const bad of ["0", "-1", "1.5", "x", "", undefined, null, {}])
      expect(positiveInt(bad)).toBeUndefined();
  });
});

describe("returning after a sign-in in another tab", () => {
  afterEach(() => window.localStorage.clear());

  it("gives the remembered path once", () => {
    rememberReturnTo("/invitations/accept?token=abc");
    expect(takeReturnTo()).toBe("/invitations/accept?token=abc");
    expect(takeReturnTo()).toBeUndefined();
  });

  it("forgets it after a sign-in link's lifetime, and never leaves the origin", () => {
    rememberReturnTo("/invitations/accept?token=abc");
    expect(takeReturnTo(Date.now() + 16 * 60_000)).toBeUndefined();
    rememberReturnTo("//evil.example/path");
    expect(takeReturnTo()).toBeUndefined();
    window.localStorage.setItem("sightline.return-to", "not json");
    expect(takeReturnTo()).toBeUndefined();
  });
});

describe("roles read again after a refusal", () => {
  const refusal = (status: number) => () => {
    throw new ApiError({ status, code: `http_${status}`, detail: "no" });
  };

  it("marks the caller's roles stale on 403 and 404, not on other failures", async () => {
    for (const [status, invalidated] of [
      [403, true],
      [404, true],
      [422, false],
    ] as const) {
      const client = createQueryClient();
      client.setQueryData(keys.userContext, { projects: [] });
      await client.fetchQuery({ queryKey: ["probe"], queryFn: refusal(status) }).catch(() => undefined);
      expect(client.getQueryState(keys.userContext)?.isInvalidated, String(status)).toBe(invalidated);
      client.clear();
    }
  });
});
