// The real Sightline inside the test process, for what a child process hides from a test: the
// server's own app builder and stores (temporary DATA_DIR, this process's chDB) serving the built
// dashboard on a free loopback port, so a test can take the real events store down.
import { freePort } from "../../../server/test/support/process";
import { createTestContext } from "../../../server/test/support/app";
import { removeTestChdbPath } from "../../../server/test/support/events";
import type { TestSmtpServer } from "../../../server/test/support/smtp";
import { linkTokenReader } from "./mail-links";
import type { Sightline } from "./server";

export interface InProcessSightline extends Sightline {
  /** Closes the real events executor: every events call answers 503 from then on. */
  stopEventsStore(): Promise<void>;
}

/** Same options and mail handling as `startSightline` (outbox, or `smtp` when given). */
export async function startSightlineInProcess(
  options: { smtp?: TestSmtpServer; env?: Readonly<Record<string, string>> } = {},
): Promise<InProcessSightline> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const ctx = await createTestContext({
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      ...(options.smtp === undefined ? {} : { SMTP_URL: options.smtp.url }),
      ...options.env,
    },
  });
  try {
    await ctx.app.listen({ port, host: "127.0.0.1" });
  } catch (error) {
    await ctx.close();
    throw error;
  }
  return {
    url,
    dataDir: ctx.dataDir,
    linkTokenFor: linkTokenReader(ctx.dataDir, options.smtp),
    stopEventsStore: () => ctx.deps.events.close(),
    async stop() {
      await ctx.close();
      await removeTestChdbPath();
    },
  };
}
