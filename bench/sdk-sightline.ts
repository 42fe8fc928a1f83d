// The Sightline of `npm run bench:sdk`, in a process of its own: the real app on temporary
// stores (the server suites' test context), listening on an ephemeral loopback port, with a
// project, an app and a key made through its API. Prints them as one JSON line; stops on SIGTERM.
import type { AddressInfo } from "node:net";
import { createIngestFixture } from "../packages/server/test/ingest/helpers.js";
import { createTestContext } from "../packages/server/test/support/app.js";

const ctx = await createTestContext();
const fixture = await createIngestFixture(ctx, "bench@example.com");
await ctx.app.listen({ port: 0, host: "127.0.0.1" });
const { port } = ctx.app.server.address() as AddressInfo;
process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${port}`, key: fixture.projectKey, app: fixture.checkout.slug })}\n`,
);
process.once("SIGTERM", () => {
  void ctx.close().then(() => process.exit(0));
});
