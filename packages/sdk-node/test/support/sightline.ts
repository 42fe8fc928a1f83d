// A real Sightline for the SDK suites: the server package's app on temporary stores, listening
// on an ephemeral loopback port, with a signed-in owner, a project, an app and an ingest key
// made through the API. Records are read back through the query routes, as a user would.
import type { Server } from "node:http";
import type { LogRecord, RequestDetail, RequestRecord } from "@sightline/contracts";
import type { AddressInfo } from "node:net";
import { createTestContext, type TestContext } from "../../../server/test/support/app.js";
import { createIngestFixture, type IngestFixture } from "../../../server/test/ingest/helpers.js";

/** Records as the query routes return them. */
export type StoredRequest = RequestRecord;
export type StoredRequestDetail = RequestDetail;
export type StoredLog = LogRecord;

export interface RealSightline {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly ctx: TestContext;
  readonly fixture: IngestFixture;
  /** Slug of the app the SDK sends to. */
  readonly app: string;
  readonly key: string;
  requests(query?: Record<string, string>): Promise<StoredRequest[]>;
  requestDetail(id: string): Promise<StoredRequestDetail>;
  logs(query?: Record<string, string>): Promise<StoredLog[]>;
  close(): Promise<void>;
}

export async function startSightline(env: Record<string, string> = {}): Promise<RealSightline> {
  const ctx = await createTestContext({ env });
  const fixture = await createIngestFixture(ctx);
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = ctx.app.server.address() as AddressInfo;
  const project = fixture.project.slug;
  const get = async <T>(path: string): Promise<T> => {
    const reply = await fixture.api.get(path);
    if (reply.statusCode !== 200) throw new Error(`${path} answered ${reply.statusCode}: ${reply.body}`);
    return reply.json<T>();
  };
  const page = (query: Record<string, string>) =>
    new URLSearchParams({ app_slugs: fixture.checkout.slug, page_size: "200", ...query }).toString();
  return {
    url: `http://127.0.0.1:${port}`,
    ctx,
    fixture,
    app: fixture.checkout.slug,
    key: fixture.projectKey,
    requests: async (query = {}) =>
      (await get<{ items: StoredRequest[] }>(`/api/v1/projects/${project}/data/requests?${page(query)}`))
        .items,
    requestDetail: (id) => get<StoredRequestDetail>(`/api/v1/projects/${project}/data/requests/${id}`),
    logs: async (query = {}) =>
      (await get<{ items: StoredLog[] }>(`/api/v1/projects/${project}/data/logs?${page(query)}`)).items,
    close: () => ctx.close(),
  };
}

/** Polls `read` until `done` holds for what it returns (records arrive in the background). */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Serves a node:http request listener on an ephemeral loopback port. */
export async function listen(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
