// The condition line agents read for each kind of alert rule (list_alerts, the alert-rules resource).
import type { AlertRule } from "@sightline/contracts";
import { describe, expect, it } from "vitest";
import { ruleRow } from "../../src/modules/mcp/tools/alerts.tools.js";

const base: AlertRule = {
  id: "0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21",
  name: "rule",
  kind: "threshold",
  enabled: true,
  scope: { app: null, environment: null, endpoint: null },
  metric: "error_rate",
  error_status_from: 500,
  status: null,
  comparator: "gt",
  threshold: 5,
  sensitivity: null,
  direction: null,
  window_seconds: 600,
  min_requests: 0,
  for_evaluations: 1,
  muted_until: null,
  channel_ids: [],
  state: "ok",
  state_since: "2026-11-21T06:00:00.000Z",
  last_evaluated_at: null,
  last_value: null,
  last_band: null,
  created_at: "2026-11-21T06:00:00.000Z",
  updated_at: "2026-11-21T06:00:00.000Z",
};

describe("ruleRow's condition", () => {
  it("states each kind's own condition", () => {
    expect(ruleRow(base).condition).toBe("error_rate gt 5");
    expect(
      ruleRow({
        ...base,
        kind: "anomaly",
        comparator: null,
        threshold: null,
        sensitivity: "high",
        direction: "up",
      }).condition,
    ).toBe("error_rate outside its expected band (high sensitivity, up)");
    expect(
      ruleRow({
        ...base,
        kind: "silence",
        metric: "silent_minutes",
        error_status_from: null,
        comparator: null,
        threshold: null,
      }).condition,
    ).toBe("no heartbeat for 10 min");
  });
});
