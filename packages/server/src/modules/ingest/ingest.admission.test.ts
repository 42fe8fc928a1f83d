// The admission buckets on their own, on a hand-moved clock: a bucket not in debt admits a whole
// batch, debt refuses until refilled, refills stop at the burst, and project and key are apart.
import { describe, expect, it } from "vitest";
import type { Clock } from "../../clock.js";
import { AppError } from "../../errors.js";
import type { KeyPrincipal } from "./directory.js";
import { createIngestAdmission } from "./ingest.admission.js";

function clockAt(startMs: number): Clock & { advance(ms: number): void } {
  let nowMs = startMs;
  return {
    now: () => new Date(nowMs),
    advance(ms) {
      nowMs += ms;
    },
  };
}

const principal = (keyId: string, projectId = "p1"): KeyPrincipal => ({
  keyId,
  project: { id: projectId, slug: projectId },
  app: null,
});

/** The Retry-After of the refusal `admit` throws, or "admitted". */
function tryAdmit(admit: () => void): string {
  try {
    admit();
    return "admitted";
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "rate_limited") throw error;
    return `429 retry-after ${error.options.headers?.["retry-after"]}`;
  }
}

describe("ingest admission", () => {
  const limits = { projectRate: 100, projectBurst: 250, keyRate: 1000, keyBurst: 1000 };

  it("admits whole batches while the bucket is not in debt, then refuses until it is repaid", () => {
    const clock = clockAt(1_000_000);
    const admission = createIngestAdmission(limits, clock);
    const key = principal("k1");
    const results = [0, 1, 2, 3].map(() => tryAdmit(() => admission.admit(key, 100)));
    // 250 → 150 → 50 → -50 (admitted: not in debt before) → refused, 0.5 s of debt.
    expect(results).toEqual(["admitted", "admitted", "admitted", "429 retry-after 1"]);
    clock.advance(400);
    expect(tryAdmit(() => admission.admit(key, 100))).toBe("429 retry-after 1");
    clock.advance(100);
    expect(tryAdmit(() => admission.admit(key, 100))).toBe("admitted");
  });

  it("never locks out a batch larger than the burst, and says how long the debt lasts", () => {
    const clock = clockAt(0);
    const admission = createIngestAdmission(limits, clock);
    expect(tryAdmit(() => admission.admit(principal("k1"), 1000))).toBe("admitted");
    // 250 - 1000 = 750 records of debt at 100 per second.
    expect(tryAdmit(() => admission.admit(principal("k1"), 1))).toBe("429 retry-after 8");
  });

  it("refills no further than the burst, and not at all when the clock goes back", () => {
    const clock = clockAt(10_000_000);
    const admission = createIngestAdmission(limits, clock);
    admission.admit(principal("k1"), 250);
    clock.advance(3_600_000);
    // Full again after an hour, but only to 250: 250 → -50 → refused.
    expect(tryAdmit(() => admission.admit(principal("k1"), 300))).toBe("admitted");
    expect(tryAdmit(() => admission.admit(principal("k1"), 1))).toBe("429 retry-after 1");
    clock.advance(-60_000);
    expect(tryAdmit(() => admission.admit(principal("k1"), 1))).toBe("429 retry-after 1");
  });

  it("reserves the key's last batch at the screen and charges the real size at admission", async () => {
    const clock = clockAt(0);
    const admission = createIngestAdmission(
      { projectRate: 1, projectBurst: 300, keyRate: 1000, keyBurst: 1000 },
      clock,
    );
    const key = principal("k1");
    // Another key of the project, admitted without a screen: it reads the project's bucket.
    const probe = principal("k2");
    await admission.screen(key);
    admission.admit(key, 100); // 300 → 200; the key's last batch is now 100
    await admission.screen(key); // A reserves 100 → 100
    await admission.screen(key); // B reserves 100 → 0, not in debt
    await admission.screen(key); // C reserves 100 → -100: the next one would be refused
    admission.admit(key, 50); // A: 100 back, 50 charged → -50
    // B never reaches admission (a bad body, say): its 100 stays charged.
    admission.admit(key, 50); // C: 100 back, 50 charged → 0
    expect(tryAdmit(() => admission.admit(probe, 1))).toBe("admitted"); // 0 → -1
    expect(tryAdmit(() => admission.admit(probe, 1))).toBe("429 retry-after 1");
  });

  it("keeps projects apart, and refuses a key in debt whatever its project has left", async () => {
    const clock = clockAt(0);
    const admission = createIngestAdmission(
      { projectRate: 100, projectBurst: 100, keyRate: 10, keyBurst: 10 },
      clock,
    );
    admission.admit(principal("k1", "p1"), 10);
    admission.admit(principal("k1", "p1"), 10);
    // Key k1 is 10 in debt; its project still has 80.
    expect(tryAdmit(() => admission.admit(principal("k1", "p1"), 1))).toBe("429 retry-after 1");
    expect(tryAdmit(() => admission.admit(principal("k2", "p1"), 80))).toBe("admitted");
    // Project p1 is now at 0, not in debt: k3 is admitted, and then p1 is in debt.
    expect(tryAdmit(() => admission.admit(principal("k3", "p1"), 5))).toBe("admitted");
    expect(tryAdmit(() => admission.admit(principal("k4", "p1"), 1))).toMatch(/^429/);
    expect(tryAdmit(() => admission.admit(principal("k5", "p2"), 100))).toBe("admitted");
    // Screening a caller that is not in debt charges nothing and lets it through at once.
    await admission.screen(principal("k6", "p3"));
    expect(tryAdmit(() => admission.admit(principal("k6", "p3"), 100))).toBe("admitted");
  });
});
