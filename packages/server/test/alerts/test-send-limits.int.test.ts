// The test-notification route is rate-limited, per user and per project, on SQLite and
// PostgreSQL: each call sends to every channel of the rule (up to 20 outbound requests), so
// before the limit anyone with alerts:write could make the server send without bound.
import { ALERT_LIMITS, type AlertRule } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import type { Client } from "../support/client.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { join, person, signInTeam, type Team, teamProject } from "../support/team.js";

describe.each(metadataBackends())("test notification limits on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let clock: ManualClock;
  let team: Team;
  beforeAll(async () => {
    // Mid-window, so the minute does not roll over while the test runs.
    clock = manualClock(new Date("2026-03-30T12:00:05.000Z"));
    ctx = await createTestContext({ metadata: backend, clock });
    team = await signInTeam(ctx, "limits.test");
    await teamProject(ctx, team, "limits");
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const ruleIn = async (client: Client, slug: string): Promise<string> => {
    const response = await client.post(`/api/v1/projects/${slug}/alerts`, {
      name: "Tested often",
      metric: "error_rate",
      comparator: "gt",
      threshold: 1,
      window_seconds: 300,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<AlertRule>().id;
  };

  it("answers 429 with Retry-After beyond the per-user and the per-project limit", async () => {
    const rule = await ruleIn(team.owner.client, "limits");
    const test = (client: Client) => client.post(`/api/v1/projects/limits/alerts/${rule}/test`);
    for (let call = 0; call < ALERT_LIMITS.testSendsPerUserPerMinute; call++) {
      expect((await test(team.owner.client)).statusCode).toBe(200);
    }
    const perUser = await test(team.owner.client);
    expect(expectProblem(perUser, "rate_limited").detail).toMatch(/per user/);
    expect(perUser.headers["retry-after"]).toBe("55");

    // Another user of the project has their own allowance, until the project's is spent.
    const calls = ALERT_LIMITS.testSendsPerProjectPerMinute - ALERT_LIMITS.testSendsPerUserPerMinute;
    for (let call = 0; call < calls; call++) {
      expect((await test(team.admin.client)).statusCode).toBe(200);
    }
    const third = await person(ctx, "admin2@limits.test");
    await join(ctx, team.owner.client, "limits", third, "admin");
    const perProject = await test(third.client);
    expect(expectProblem(perProject, "rate_limited").detail).toMatch(/per project/);
    expect(perProject.headers["retry-after"]).toBe("55");

    // Another project is not held back by this one.
    const elsewhere = (await team.outsider.client.get("/api/v1/projects")).json<Array<{ slug: string }>>();
    const slug = elsewhere[0]?.slug as string;
    const otherRule = await ruleIn(team.outsider.client, slug);
    const other = await team.outsider.client.post(`/api/v1/projects/${slug}/alerts/${otherRule}/test`);
    expect(other.statusCode, other.body).toBe(200);

    // The next minute, the limits start again.
    clock.advance(60_000);
    expect((await test(third.client)).statusCode).toBe(200);
  });
});
