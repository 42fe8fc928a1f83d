// Role x route, generated from the route table: every project and app route the app registers is
// called by an outsider (404, exactly as for a missing resource), by each role its declared
// permission leaves out (403 forbidden), and by each role it allows (2xx), on SQLite and
// PostgreSQL. Who is allowed comes from the permission matrix, never from a list kept here; the
// table below only says how to call each route, and a route without a call fails the suite.
// Personal access tokens of the owner run the same table: a read-write token answers as the
// owner, a read-only one as the owner on reads and 403 on everything else, one limited to another
// project 404, a revoked one 401.
import { type Permission, type Role, ROLES, roleCan, tokenScopeAllows } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteAccessEntry } from "../../src/modules/access/index.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { clientFor, type Reply } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { ingest, request } from "../support/query-fixture.js";

/** The trace id of the fixture's one request record. */
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
import { join, type Person, signInTeam, type Team, teamProject } from "../support/team.js";

interface Call {
  readonly url: string;
  readonly body?: unknown;
}

/** How `who` calls the route on `project`; may create a target the call then uses up. */
type MakeCall = (who: Person, project: string) => Call | Promise<Call>;

interface RouteCase {
  /** The call of outsiders and of roles the permission leaves out (nothing changes for them). */
  readonly call: MakeCall;
  /** The call of allowed roles, when it destroys its target: each gets a target of its own. */
  readonly allowedCall?: MakeCall;
  /** Runs on a project of its own: the allowed call deletes, hands over or leaves it. */
  readonly ownProject?: boolean;
  /** The status an allowed role gets when it is not 2xx (the last owner leaving: 409). */
  readonly allowedStatus?: (role: Role) => number | undefined;
}

interface Fixture {
  readonly team: Team;
  readonly alertId: string;
  readonly channelId: string;
  readonly contractRuleId: string;
  readonly sloId: string;
  readonly uptimeCheckId: string;
  readonly keyId: string;
  readonly appKeyId: string;
  readonly endpointId: string;
  readonly invitationId: string;
  readonly requestId: string;
  /** The owner's shared view: every member may read it. */
  readonly viewId: string;
}

const P = "/api/v1/projects/:project_slug";
const A = "/api/v1/apps/:app_slug";
const ENDPOINT = "method=GET&path=/users/{id}";
const CONTRACT = "app=web&environment=production";
const DECLARED = {
  openapi: "3.1.0",
  info: { title: "Web", version: "1" },
  paths: { "/users/{id}": { get: { responses: { "200": { description: "A user" } } } } },
};

let serial = 0;
const next = () => {
  serial += 1;
  return serial;
};

/** Creates something with the owner's client and returns a field of the answer. */
async function created(fx: Fixture, url: string, body: unknown, field = "id", status = 201): Promise<string> {
  const response = await fx.team.owner.client.post(url, body);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
  return response.json<Record<string, string>>()[field] as string;
}

const alertBody = () => ({
  name: `Errors ${next()}`,
  metric: "error_rate",
  comparator: "gt",
  threshold: 5,
  window_seconds: 300,
});
const channelBody = () => ({ name: `Mail ${next()}`, type: "email", addresses: ["ops@team.test"] });
const sloBody = () => ({
  name: `Available ${next()}`,
  scope: { app: "web" },
  sli: { kind: "availability" },
  target: 99.9,
  window_days: 30,
});

const uptimeBody = () => ({ name: `Health ${next()}`, url: "https://api.example.com/health" });

/** How to call every project and app route. Keys are `METHOD url-template`. */
function routeCases(fx: Fixture): Record<string, RouteCase> {
  const fixed =
    (url: string, body?: unknown): MakeCall =>
    () => ({ url, body });
  const projectKey = () => created(fx, "/api/v1/projects/team/api-keys", { name: `temp ${next()}` });
  const appKey = () => created(fx, "/api/v1/apps/web/api-keys", { name: `temp ${next()}` });
  const app = () => created(fx, "/api/v1/projects/team/apps", { name: `Temp ${next()}` }, "slug");
  const env = () => created(fx, "/api/v1/apps/web/environments", { name: `temp-${next()}` }, "slug");
  const endpoint = () =>
    created(fx, "/api/v1/apps/web/endpoints", { method: "GET", path: `/temp/${next()}` });
  const invitation = () =>
    created(fx, "/api/v1/projects/team/invitations", { email: `temp${next()}@guests.test`, role: "viewer" });
  const alert = () => created(fx, "/api/v1/projects/team/alerts", alertBody());
  let anomalyRuleId: Promise<string> | undefined;
  const anomalyRule = () =>
    (anomalyRuleId ??= created(fx, "/api/v1/projects/team/alerts", {
      name: "Traffic unusual",
      kind: "anomaly",
      metric: "request_count",
      window_seconds: 300,
    }));
  const channel = () => created(fx, "/api/v1/projects/team/notification-channels", channelBody());
  const contractRuleBody = () => ({ name: `Contract ${next()}`, channel_ids: [fx.channelId] });
  const declare = () => created(fx, "/api/v1/projects/team/api/declared?app=web", DECLARED, "app", 200);
  const slo = () => created(fx, "/api/v1/projects/team/slos", sloBody());
  /** A view `who` saves in the team project (the owner's token saves as the owner). */
  const ownView = async (who: Person): Promise<string> => {
    const response = await who.client.post("/api/v1/projects/team/saved-views", {
      page: "logs",
      name: `Mine ${next()}`,
      filters: {},
    });
    expect(response.statusCode, `${who.email}: ${response.body}`).toBe(201);
    return response.json<{ id: string }>().id;
  };
  const uptimeCheck = () => created(fx, "/api/v1/projects/team/uptime-checks", uptimeBody());
  const U = `/api/v1/projects/team/uptime-checks/${fx.uptimeCheckId}`;
  return {
    // ---- projects ----
    [`GET ${P}`]: { call: fixed("/api/v1/projects/team") },
    [`PATCH ${P}`]: { call: fixed("/api/v1/projects/team", { description: "Edited" }) },
    [`GET ${P}/retention`]: { call: fixed("/api/v1/projects/team/retention") },
    [`PATCH ${P}/retention`]: { call: fixed("/api/v1/projects/team/retention", { logs_days: 7 }) },
    [`DELETE ${P}`]: { ownProject: true, call: (_who, project) => ({ url: `/api/v1/projects/${project}` }) },
    // ---- apps ----
    [`GET ${P}/apps`]: { call: fixed("/api/v1/projects/team/apps") },
    [`POST ${P}/apps`]: {
      call: () => ({ url: "/api/v1/projects/team/apps", body: { name: `App ${next()}` } }),
    },
    [`GET ${P}/apps/:app_slug`]: { call: fixed("/api/v1/projects/team/apps/web") },
    [`PATCH ${P}/apps/:app_slug`]: { call: fixed("/api/v1/projects/team/apps/web", { description: "x" }) },
    [`DELETE ${P}/apps/:app_slug`]: {
      call: fixed("/api/v1/projects/team/apps/web"),
      allowedCall: async () => ({ url: `/api/v1/projects/team/apps/${await app()}` }),
    },
    "POST /api/v1/apps": {
      call: () => ({ url: "/api/v1/apps", body: { project_slug: "team", name: `App ${next()}` } }),
    },
    [`GET ${A}`]: { call: fixed("/api/v1/apps/web") },
    [`PATCH ${A}`]: { call: fixed("/api/v1/apps/web", { description: "y" }) },
    [`DELETE ${A}`]: {
      call: fixed("/api/v1/apps/web"),
      allowedCall: async () => ({ url: `/api/v1/apps/${await app()}` }),
    },
    // ---- API keys ----
    [`POST ${P}/api-keys`]: { call: fixed("/api/v1/projects/team/api-keys", { name: "k" }) },
    [`GET ${P}/api-keys`]: { call: fixed("/api/v1/projects/team/api-keys") },
    [`DELETE ${P}/api-keys/:key_id`]: {
      call: fixed(`/api/v1/projects/team/api-keys/${fx.keyId}`),
      allowedCall: async () => ({ url: `/api/v1/projects/team/api-keys/${await projectKey()}` }),
    },
    [`POST ${A}/api-keys`]: { call: fixed("/api/v1/apps/web/api-keys", { name: "k" }) },
    [`GET ${A}/api-keys`]: { call: fixed("/api/v1/apps/web/api-keys") },
    [`DELETE ${A}/api-keys/:key_id`]: {
      call: fixed(`/api/v1/apps/web/api-keys/${fx.appKeyId}`),
      allowedCall: async () => ({ url: `/api/v1/apps/web/api-keys/${await appKey()}` }),
    },
    // ---- environments and endpoints ----
    [`GET ${A}/environments`]: { call: fixed("/api/v1/apps/web/environments") },
    [`POST ${A}/environments`]: {
      call: () => ({ url: "/api/v1/apps/web/environments", body: { name: `env-${next()}` } }),
    },
    [`PATCH ${A}/environments/:env_slug`]: {
      call: fixed("/api/v1/apps/web/environments/production", { color: "#22c55e" }),
    },
    [`DELETE ${A}/environments/:env_slug`]: {
      call: fixed("/api/v1/apps/web/environments/production"),
      allowedCall: async () => ({ url: `/api/v1/apps/web/environments/${await env()}` }),
    },
    [`GET ${A}/endpoints`]: { call: fixed("/api/v1/apps/web/endpoints") },
    [`POST ${A}/endpoints`]: {
      call: () => ({ url: "/api/v1/apps/web/endpoints", body: { method: "POST", path: `/e/${next()}` } }),
    },
    [`GET ${A}/endpoints/:endpoint_id`]: { call: fixed(`/api/v1/apps/web/endpoints/${fx.endpointId}`) },
    [`PATCH ${A}/endpoints/:endpoint_id`]: {
      call: fixed(`/api/v1/apps/web/endpoints/${fx.endpointId}`, { description: "z" }),
    },
    [`DELETE ${A}/endpoints/:endpoint_id`]: {
      call: fixed(`/api/v1/apps/web/endpoints/${fx.endpointId}`),
      allowedCall: async () => ({ url: `/api/v1/apps/web/endpoints/${await endpoint()}` }),
    },
    // ---- members, invitations, audit ----
    [`GET ${P}/members`]: { call: fixed("/api/v1/projects/team/members") },
    [`PATCH ${P}/members/:user_id`]: {
      call: fixed(`/api/v1/projects/team/members/${fx.team.viewer.userId}`, { role: "viewer" }),
    },
    [`DELETE ${P}/members/:user_id`]: {
      ownProject: true,
      // Leaving: every role may; the project's only owner is refused (409), never 403.
      call: (who, project) => ({ url: `/api/v1/projects/${project}/members/${who.userId}` }),
      allowedStatus: (role) => (role === "owner" ? 409 : undefined),
    },
    [`POST ${P}/transfer-ownership`]: {
      ownProject: true,
      call: (_who, project) => ({
        url: `/api/v1/projects/${project}/transfer-ownership`,
        body: { user_id: fx.team.admin.userId },
      }),
    },
    [`POST ${P}/invitations`]: {
      call: () => ({
        url: "/api/v1/projects/team/invitations",
        body: { email: `guest${next()}@guests.test`, role: "viewer" },
      }),
    },
    [`GET ${P}/invitations`]: { call: fixed("/api/v1/projects/team/invitations") },
    [`DELETE ${P}/invitations/:invitation_id`]: {
      call: fixed(`/api/v1/projects/team/invitations/${fx.invitationId}`),
      allowedCall: async () => ({ url: `/api/v1/projects/team/invitations/${await invitation()}` }),
    },
    [`GET ${P}/audit-log`]: { call: fixed("/api/v1/projects/team/audit-log") },
    // ---- data and analytics ----
    [`GET ${P}/data/requests`]: { call: fixed("/api/v1/projects/team/data/requests") },
    [`GET ${P}/data/requests/:id`]: { call: fixed(`/api/v1/projects/team/data/requests/${fx.requestId}`) },
    [`GET ${P}/data/requests/export`]: { call: fixed("/api/v1/projects/team/data/requests/export") },
    [`GET ${P}/data/requests/latency-histogram`]: {
      call: fixed("/api/v1/projects/team/data/requests/latency-histogram"),
    },
    [`GET ${P}/data/logs`]: { call: fixed("/api/v1/projects/team/data/logs") },
    [`GET ${P}/data/logs/export`]: { call: fixed("/api/v1/projects/team/data/logs/export") },
    [`GET ${P}/data/traces`]: { call: fixed("/api/v1/projects/team/data/traces") },
    [`GET ${P}/data/traces/:trace_id`]: { call: fixed(`/api/v1/projects/team/data/traces/${TRACE_ID}`) },
    [`GET ${P}/analytics/environments`]: { call: fixed("/api/v1/projects/team/analytics/environments") },
    [`GET ${P}/analytics/summary`]: { call: fixed("/api/v1/projects/team/analytics/summary") },
    [`GET ${P}/analytics/timeseries`]: { call: fixed("/api/v1/projects/team/analytics/timeseries") },
    [`GET ${P}/analytics/endpoints`]: { call: fixed("/api/v1/projects/team/analytics/endpoints") },
    [`GET ${P}/analytics/consumers`]: { call: fixed("/api/v1/projects/team/analytics/consumers") },
    [`GET ${P}/analytics/errors`]: { call: fixed("/api/v1/projects/team/analytics/errors") },
    [`GET ${P}/analytics/error-issues`]: { call: fixed("/api/v1/projects/team/analytics/error-issues") },
    [`GET ${A}/endpoint-stats`]: { call: fixed("/api/v1/apps/web/endpoint-stats") },
    [`GET ${A}/endpoint-options`]: { call: fixed("/api/v1/apps/web/endpoint-options") },
    [`GET ${A}/consumers`]: { call: fixed("/api/v1/apps/web/consumers") },
    [`GET ${A}/analytics/summary`]: { call: fixed("/api/v1/apps/web/analytics/summary") },
    [`GET ${A}/analytics/timeseries`]: { call: fixed("/api/v1/apps/web/analytics/timeseries") },
    [`GET ${A}/analytics/related-apis`]: { call: fixed("/api/v1/apps/web/analytics/related-apis") },
    [`GET ${A}/analytics/endpoint-detail`]: {
      call: fixed(`/api/v1/apps/web/analytics/endpoint-detail?${ENDPOINT}`),
    },
    [`GET ${A}/analytics/endpoint-timeseries`]: {
      call: fixed(`/api/v1/apps/web/analytics/endpoint-timeseries?${ENDPOINT}`),
    },
    [`GET ${A}/analytics/endpoint-consumers`]: {
      call: fixed(`/api/v1/apps/web/analytics/endpoint-consumers?${ENDPOINT}`),
    },
    [`GET ${A}/analytics/endpoint-status-codes`]: {
      call: fixed(`/api/v1/apps/web/analytics/endpoint-status-codes?${ENDPOINT}`),
    },
    // ---- alerts and notification channels ----
    [`POST ${P}/alerts`]: { call: () => ({ url: "/api/v1/projects/team/alerts", body: alertBody() }) },
    [`GET ${P}/alerts`]: { call: fixed("/api/v1/projects/team/alerts") },
    [`GET ${P}/alerts/:alert_id`]: { call: fixed(`/api/v1/projects/team/alerts/${fx.alertId}`) },
    [`PATCH ${P}/alerts/:alert_id`]: {
      call: fixed(`/api/v1/projects/team/alerts/${fx.alertId}`, { name: "Renamed" }),
    },
    [`DELETE ${P}/alerts/:alert_id`]: {
      call: fixed(`/api/v1/projects/team/alerts/${fx.alertId}`),
      allowedCall: async () => ({ url: `/api/v1/projects/team/alerts/${await alert()}` }),
    },
    [`GET ${P}/alerts/:alert_id/events`]: {
      call: fixed(`/api/v1/projects/team/alerts/${fx.alertId}/events`),
    },
    [`GET ${P}/alerts/:alert_id/band`]: {
      // Only anomaly rules have a band: one, made on first use.
      call: async () => ({ url: `/api/v1/projects/team/alerts/${await anomalyRule()}/band` }),
    },
    [`POST ${P}/alerts/:alert_id/test`]: { call: fixed(`/api/v1/projects/team/alerts/${fx.alertId}/test`) },
    [`POST ${P}/notification-channels`]: {
      call: () => ({ url: "/api/v1/projects/team/notification-channels", body: channelBody() }),
    },
    [`GET ${P}/notification-channels`]: { call: fixed("/api/v1/projects/team/notification-channels") },
    [`GET ${P}/notification-channels/:channel_id`]: {
      call: fixed(`/api/v1/projects/team/notification-channels/${fx.channelId}`),
    },
    [`PATCH ${P}/notification-channels/:channel_id`]: {
      call: fixed(`/api/v1/projects/team/notification-channels/${fx.channelId}`, { name: "Renamed" }),
    },
    [`DELETE ${P}/notification-channels/:channel_id`]: {
      call: fixed(`/api/v1/projects/team/notification-channels/${fx.channelId}`),
      allowedCall: async () => ({ url: `/api/v1/projects/team/notification-channels/${await channel()}` }),
    },
    // ---- API contract (web/production was inferred from the fixture's request) ----
    [`POST ${P}/api/alert-rules`]: {
      call: () => ({ url: "/api/v1/projects/team/api/alert-rules", body: contractRuleBody() }),
    },
    [`GET ${P}/api/alert-rules`]: { call: fixed("/api/v1/projects/team/api/alert-rules") },
    [`DELETE ${P}/api/alert-rules/:rule_id`]: {
      call: fixed(`/api/v1/projects/team/api/alert-rules/${fx.contractRuleId}`),
      allowedCall: async () => ({
        url: `/api/v1/projects/team/api/alert-rules/${await created(fx, "/api/v1/projects/team/api/alert-rules", contractRuleBody())}`,
      }),
    },
    [`GET ${P}/api/contract`]: { call: fixed(`/api/v1/projects/team/api/contract?${CONTRACT}`) },
    [`GET ${P}/api/contract/versions`]: {
      call: fixed(`/api/v1/projects/team/api/contract/versions?${CONTRACT}`),
    },
    [`GET ${P}/api/contract/diff`]: {
      call: fixed(`/api/v1/projects/team/api/contract/diff?${CONTRACT}&from=1`),
    },
    [`GET ${P}/api/changes`]: { call: fixed("/api/v1/projects/team/api/changes") },
    [`GET ${P}/api/changes/:change_id`]: {
      // No change exists yet (one version): allowed roles reach the lookup, which finds nothing.
      call: fixed("/api/v1/projects/team/api/changes/0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"),
      allowedStatus: () => 404,
    },
    [`POST ${P}/api/declared`]: { call: fixed("/api/v1/projects/team/api/declared?app=web", DECLARED) },
    [`GET ${P}/api/declared`]: {
      call: async () => {
        await declare();
        return { url: "/api/v1/projects/team/api/declared?app=web" };
      },
    },
    [`DELETE ${P}/api/declared`]: {
      call: fixed("/api/v1/projects/team/api/declared?app=web"),
      allowedCall: async () => {
        await declare();
        return { url: "/api/v1/projects/team/api/declared?app=web" };
      },
    },
    [`GET ${P}/api/declared/diff`]: {
      call: async () => {
        await declare();
        return { url: `/api/v1/projects/team/api/declared/diff?${CONTRACT}` };
      },
    },
    [`GET ${P}/api/report`]: {
      call: async () => {
        await declare();
        return { url: `/api/v1/projects/team/api/report?${CONTRACT}` };
      },
    },
    [`GET ${A}/analytics/endpoint-payloads`]: {
      call: fixed(`/api/v1/apps/web/analytics/endpoint-payloads?${ENDPOINT}`),
    },
    // ---- SLOs ----
    [`POST ${P}/slos`]: { call: () => ({ url: "/api/v1/projects/team/slos", body: sloBody() }) },
    [`POST ${P}/slos/per-consumer`]: {
      call: () => ({
        url: "/api/v1/projects/team/slos/per-consumer",
        body: {
          template: {
            name: `Per consumer ${next()}`,
            sli: { kind: "latency", threshold_ms: 300 },
            target: 95,
            window_days: 7,
          },
          scope: { app: "web" },
          top: 1,
        },
      }),
    },
    [`GET ${P}/slos`]: { call: fixed("/api/v1/projects/team/slos?include_status=true") },
    [`GET ${P}/slos/:slo_id`]: { call: fixed(`/api/v1/projects/team/slos/${fx.sloId}`) },
    [`GET ${P}/slos/:slo_id/status`]: { call: fixed(`/api/v1/projects/team/slos/${fx.sloId}/status`) },
    [`GET ${P}/slos/:slo_id/burn-down`]: { call: fixed(`/api/v1/projects/team/slos/${fx.sloId}/burn-down`) },
    [`GET ${P}/slos/:slo_id/events`]: { call: fixed(`/api/v1/projects/team/slos/${fx.sloId}/events`) },
    [`PATCH ${P}/slos/:slo_id`]: {
      call: fixed(`/api/v1/projects/team/slos/${fx.sloId}`, { name: "Renamed" }),
    },
    [`DELETE ${P}/slos/:slo_id`]: {
      call: fixed(`/api/v1/projects/team/slos/${fx.sloId}`),
      allowedCall: async () => ({ url: `/api/v1/projects/team/slos/${await slo()}` }),
    },
    // ---- saved views: each caller changes and deletes a view of their own ----
    [`GET ${P}/saved-views`]: { call: fixed("/api/v1/projects/team/saved-views?page=requests") },
    [`POST ${P}/saved-views`]: {
      call: fixed("/api/v1/projects/team/saved-views", {
        page: "requests",
        name: "Slow",
        filters: { q: "/a" },
      }),
    },
    [`GET ${P}/saved-views/:view_id`]: { call: fixed(`/api/v1/projects/team/saved-views/${fx.viewId}`) },
    [`PATCH ${P}/saved-views/:view_id`]: {
      call: fixed(`/api/v1/projects/team/saved-views/${fx.viewId}`, { name: "Renamed" }),
      allowedCall: async (who) => ({
        url: `/api/v1/projects/team/saved-views/${await ownView(who)}`,
        body: { name: "Renamed" },
      }),
    },
    [`DELETE ${P}/saved-views/:view_id`]: {
      call: fixed(`/api/v1/projects/team/saved-views/${fx.viewId}`),
      allowedCall: async (who) => ({ url: `/api/v1/projects/team/saved-views/${await ownView(who)}` }),
    },
    // ---- uptime checks ----
    [`POST ${P}/uptime-checks`]: {
      call: () => ({ url: "/api/v1/projects/team/uptime-checks", body: uptimeBody() }),
    },
    [`GET ${P}/uptime-checks`]: { call: fixed("/api/v1/projects/team/uptime-checks") },
    [`GET ${P}/uptime-checks/:check_id`]: { call: fixed(U) },
    [`GET ${P}/uptime-checks/:check_id/results`]: { call: fixed(`${U}/results`) },
    [`PATCH ${P}/uptime-checks/:check_id`]: { call: fixed(U, { name: "Renamed" }) },
    [`DELETE ${P}/uptime-checks/:check_id`]: {
      call: fixed(U),
      allowedCall: async () => ({ url: `/api/v1/projects/team/uptime-checks/${await uptimeCheck()}` }),
    },
    [`GET ${A}/analytics/endpoint-validation-errors`]: {
      call: fixed(`/api/v1/apps/web/analytics/endpoint-validation-errors?${ENDPOINT}`),
    },
  };
}

const keyOf = (entry: RouteAccessEntry) => `${entry.method} ${entry.url}`;
const isScoped = (entry: RouteAccessEntry) =>
  entry.access.scope === "project" || entry.access.scope === "app";

type TokenHolder = Person & { readonly id: string; readonly authorization: string };

/** The owner's token with `body`'s scope and projects, as a Person that calls with it. */
async function tokenOf(ctx: TestContext, owner: Person, body: Record<string, unknown>): Promise<TokenHolder> {
  const created = await owner.client.post("/api/v1/users/me/tokens", {
    name: `matrix ${next()}`,
    expires_in_days: 1,
    ...body,
  });
  expect(created.statusCode, created.body).toBe(201);
  const { id, token } = created.json<{ id: string; token: string }>();
  const authorization = `Bearer ${token}`;
  return { ...owner, id, authorization, client: clientFor(ctx.app, { authorization }) };
}

async function send(who: Person, method: string, call: Call): Promise<Reply> {
  switch (method) {
    case "GET":
      return who.client.get(call.url);
    case "POST":
      return who.client.post(call.url, call.body);
    case "PATCH":
      return who.client.patch(call.url, call.body);
    case "DELETE":
      return who.client.delete(call.url);
    default:
      throw new Error(`no client method for ${method}`);
  }
}

// Each test calls every route several times (over 200 routes, five callers): a bound on liveness
// sized for a loaded CI machine, not a speed claim.
const LIVENESS = { timeout: 180_000 };

describe.each(metadataBackends())("role x route on $name", LIVENESS, (backend: MetadataBackend) => {
  let ctx: TestContext;
  let fx: Fixture;
  let table: readonly RouteAccessEntry[];
  let ownProjects = 0;

  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend });
    table = ctx.app.routeAccess;
    const team = await signInTeam(ctx);
    await teamProject(ctx, team, "team");
    const owner = team.owner.client;
    const id = async (url: string, body: unknown) => {
      const response = await owner.post(url, body);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(201);
      return response.json<{ id: string; key?: string }>();
    };
    await id("/api/v1/projects/team/apps", { name: "Web", slug: "web" });
    const projectKey = await id("/api/v1/projects/team/api-keys", { name: "ingest" });
    const appKey = await id("/api/v1/apps/web/api-keys", { name: "web only" });
    await id("/api/v1/apps/web/environments", { name: "production" });
    const endpoint = await id("/api/v1/apps/web/endpoints", { method: "GET", path: "/users/{id}" });
    const invitation = await id("/api/v1/projects/team/invitations", {
      email: "pending@guests.test",
      role: "member",
    });
    await ingest(
      ctx,
      "requests",
      [request(new Date(), { app_id: "web", trace_id: TRACE_ID })],
      projectKey.key as string,
    );
    const page = (await owner.get("/api/v1/projects/team/data/requests")).json<{
      items: Array<{ id: string }>;
    }>();
    // One inference pass, so the web app has a contract (version 1) in production.
    await ctx.deps.contract.job.run(new Date(Date.now() + 60_000));
    const alertRule = await id("/api/v1/projects/team/alerts", alertBody());
    const channel = await id("/api/v1/projects/team/notification-channels", channelBody());
    const contractRule = await id("/api/v1/projects/team/api/alert-rules", {
      name: "Contract",
      channel_ids: [channel.id],
    });
    const sloRow = await id("/api/v1/projects/team/slos", sloBody());
    const view = await id("/api/v1/projects/team/saved-views", {
      page: "requests",
      name: "Errors",
      filters: { status: "5xx" },
      shared: true,
    });
    const uptimeRow = await id("/api/v1/projects/team/uptime-checks", uptimeBody());
    fx = {
      team,
      alertId: alertRule.id,
      channelId: channel.id,
      contractRuleId: contractRule.id,
      sloId: sloRow.id,
      uptimeCheckId: uptimeRow.id,
      keyId: projectKey.id,
      appKeyId: appKey.id,
      endpointId: endpoint.id,
      invitationId: invitation.id,
      requestId: page.items[0]?.id as string,
      viewId: view.id,
    };
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("declares every API route, and has a call for each project and app route", async () => {
    const documented = Object.entries(
      (await ctx.app.inject({ url: "/api/v1/openapi.json" })).json<{ paths: Record<string, object> }>().paths,
    ).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    const declared = table.map((entry) => `${entry.method} ${entry.url.replace(/:(\w+)/g, "{$1}")}`);
    expect(new Set(declared)).toEqual(new Set(documented));
    expect(Object.keys(routeCases(fx)).sort()).toEqual(table.filter(isScoped).map(keyOf).sort());
    // Each route's reference page says what it requires.
    for (const entry of table.filter(isScoped)) {
      const permission = (entry.access as { permission: Permission }).permission;
      const path = entry.url.replace(/:(\w+)/g, "{$1}");
      const document = (await ctx.app.inject({ url: "/api/v1/openapi.json" })).json<{
        paths: Record<string, Record<string, { description?: string; responses: Record<string, unknown> }>>;
      }>();
      const operation = document.paths[path]?.[entry.method.toLowerCase()];
      expect(operation?.description, keyOf(entry)).toContain(`Requires \`${permission}\``);
      expect(Object.keys(operation?.responses ?? {}), keyOf(entry)).toEqual(
        expect.arrayContaining(["401", "403", "404"]),
      );
    }
  });

  it("answers 401 without credentials on every route that needs a signed-in user", async () => {
    for (const entry of table.filter((e) => e.access.scope !== "public" && e.access.scope !== "api-key")) {
      const url = entry.url
        .replace(":project_slug", "team")
        .replace(":app_slug", "web")
        .replace(/:\w+/g, "0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21");
      const response = await ctx.app.inject({ method: entry.method as "GET", url, payload: {} });
      expect({ route: keyOf(entry), status: response.statusCode }).toEqual({
        route: keyOf(entry),
        status: 401,
      });
      // Fastify's HEAD twin of a GET route shares its declaration.
      if (entry.method === "GET")
        expect((await ctx.app.inject({ method: "HEAD", url })).statusCode).toBe(401);
    }
  });

  it("answers each caller as the matrix says on every project and app route", async () => {
    const cases = routeCases(fx);
    const seen: string[] = [];
    for (const entry of table.filter(isScoped)) {
      const route = keyOf(entry);
      const routeCase = cases[route] as RouteCase;
      const permission = (entry.access as { permission: Permission }).permission;
      let project = "team";
      if (routeCase.ownProject === true) {
        ownProjects += 1;
        project = `own-${ownProjects}`;
        await teamProject(ctx, fx.team, project);
      }
      const outsider = await send(
        fx.team.outsider,
        entry.method,
        await routeCase.call(fx.team.outsider, project),
      );
      expect({ route, who: "outsider", status: outsider.statusCode }).toEqual({
        route,
        who: "outsider",
        status: 404,
      });
      expectProblem(outsider, "not_found");
      const allowed = ROLES.filter((role) => roleCan(role, permission));
      for (const role of ROLES.filter((r) => !allowed.includes(r))) {
        const reply = await send(fx.team[role], entry.method, await routeCase.call(fx.team[role], project));
        expect({ route, role, status: reply.statusCode }, reply.body).toEqual({ route, role, status: 403 });
        expect(expectProblem(reply, "forbidden").permission).toBe(permission);
      }
      for (const role of allowed) {
        const make = routeCase.allowedCall ?? routeCase.call;
        const reply = await send(fx.team[role], entry.method, await make(fx.team[role], project));
        const expected = routeCase.allowedStatus?.(role);
        const status =
          expected === undefined && reply.statusCode >= 200 && reply.statusCode < 300
            ? "2xx"
            : reply.statusCode;
        expect({ route, role, status }, reply.body).toEqual({ route, role, status: expected ?? "2xx" });
      }
      seen.push(route);
    }
    expect(seen.length).toBeGreaterThan(50);
  });

  it("answers the owner's tokens as their scope and projects cap the owner's role", async () => {
    const cases = routeCases(fx);
    const owner = fx.team.owner;
    await teamProject(ctx, fx.team, "elsewhere");
    const readOnly = await tokenOf(ctx, owner, { scope: "read" });
    const readWrite = await tokenOf(ctx, owner, { scope: "read-write" });
    const limited = await tokenOf(ctx, owner, { scope: "read-write", project_slugs: ["elsewhere"] });
    const outcome = (reply: Reply, expected: number | undefined) =>
      expected === undefined && reply.statusCode >= 200 && reply.statusCode < 300 ? "2xx" : reply.statusCode;
    for (const entry of table.filter(isScoped)) {
      const route = keyOf(entry);
      const routeCase = cases[route] as RouteCase;
      const permission = (entry.access as { permission: Permission }).permission;
      // Only the read-write token's call may change a project of its own; an owner and the admin
      // (whom ownership can go to) are enough for it, and spare the invitation rate limit.
      const project = async () => {
        if (routeCase.ownProject !== true) return "team";
        ownProjects += 1;
        const slug = `own-${ownProjects}`;
        const made = await owner.client.post("/api/v1/projects", { name: `Project ${slug}`, slug });
        expect(made.statusCode, made.body).toBe(201);
        await join(ctx, owner.client, slug, fx.team.admin, "admin");
        return slug;
      };
      const expected = routeCase.allowedStatus?.("owner");

      const other = await send(limited, entry.method, await routeCase.call(limited, "team"));
      expect({ route, token: "other project", status: other.statusCode }).toEqual({
        route,
        token: "other project",
        status: 404,
      });

      const read = await send(readOnly, entry.method, await routeCase.call(readOnly, "team"));
      if (tokenScopeAllows("read", permission)) {
        expect({ route, token: "read", status: outcome(read, expected) }, read.body).toEqual({
          route,
          token: "read",
          status: expected ?? "2xx",
        });
      } else {
        expect({ route, token: "read", status: read.statusCode }, read.body).toEqual({
          route,
          token: "read",
          status: 403,
        });
        expect(expectProblem(read, "forbidden").permission).toBe(permission);
      }

      const make = routeCase.allowedCall ?? routeCase.call;
      const full = await send(readWrite, entry.method, await make(readWrite, await project()));
      expect({ route, token: "read-write", status: outcome(full, expected) }, full.body).toEqual({
        route,
        token: "read-write",
        status: expected ?? "2xx",
      });
    }
  });

  it("refuses read-only tokens every write on user routes and every token the session routes", async () => {
    const readOnly = await tokenOf(ctx, fx.team.owner, { scope: "read" });
    const readWrite = await tokenOf(ctx, fx.team.owner, { scope: "read-write" });
    const userRoutes = table.filter((entry) => entry.access.scope === "user");
    for (const entry of userRoutes) {
      const url = entry.url.replace(/:\w+/g, "0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21");
      const session = (entry.access as { session?: true }).session === true;
      for (const [name, who] of [
        ["read", readOnly],
        ["read-write", readWrite],
      ] as const) {
        // A route declared `reads` (the MCP endpoint) only reads whatever its method.
        const reads = (entry.access as { reads?: true }).reads === true;
        const refused = session || (name === "read" && entry.method !== "GET" && !reads);
        const reply = await ctx.app.inject({
          method: entry.method as "GET",
          url,
          headers: { authorization: who.authorization },
          ...(entry.method === "GET" ? {} : { payload: {} }),
        });
        if (refused) {
          expect({ route: keyOf(entry), name, status: reply.statusCode }).toEqual({
            route: keyOf(entry),
            name,
            status: 403,
          });
        } else {
          expect({ route: keyOf(entry), name, status: reply.statusCode }).not.toEqual({
            route: keyOf(entry),
            name,
            status: 403,
          });
        }
      }
    }
  });

  it("answers 401 to a revoked token on every route that needs a signed-in user", async () => {
    const token = await tokenOf(ctx, fx.team.owner, { scope: "read-write" });
    expect((await token.client.get("/api/v1/projects/team")).statusCode).toBe(200);
    const revoked = await fx.team.owner.client.delete(`/api/v1/users/me/tokens/${token.id}`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    for (const entry of table.filter((e) => e.access.scope !== "public" && e.access.scope !== "api-key")) {
      const url = entry.url
        .replace(":project_slug", "team")
        .replace(":app_slug", "web")
        .replace(/:\w+/g, "0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21");
      const reply = await ctx.app.inject({
        method: entry.method as "GET",
        url,
        headers: { authorization: token.authorization },
        ...(entry.method === "GET" ? {} : { payload: {} }),
      });
      expect({ route: keyOf(entry), status: reply.statusCode }).toEqual({
        route: keyOf(entry),
        status: 401,
      });
    }
  });
});
