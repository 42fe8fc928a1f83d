// Sign-in tokens e-mailed by a test server, read where its mailer put them: the development
// outbox in DATA_DIR, or a test SMTP server. Shared by every way a test starts Sightline.
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { magicLinkTokenOf } from "../../../server/test/support/mail";
import type { TestSmtpServer } from "../../../server/test/support/smtp";

/** The newest sign-in token e-mailed to `email` after `since` (waits for the mail). */
export type LinkTokenReader = (email: string, since?: number) => Promise<string>;

export function linkTokenReader(dataDir: string, smtp: TestSmtpServer | undefined): LinkTokenReader {
  const outbox = join(dataDir, "outbox");
  // Tokens already handed out: two sign-ins of one address in a second get one link each.
  const handedOut = new Set<string>();
  return async (email, since = 0) => {
    const deadline = Date.now() + 15_000;
    if (smtp !== undefined) {
      for (;;) {
        // Newest first; mails carry no arrival time, so "since" is "not handed out yet".
        for (const mail of smtp.mailsTo(email).reverse()) {
          let token: string | undefined;
          try {
            token = magicLinkTokenOf(mail.raw);
          } catch {
            continue; // not a sign-in e-mail (an invitation)
          }
          if (token === undefined || handedOut.has(token)) continue;
          handedOut.add(token);
          return token;
        }
        if (Date.now() > deadline) throw new Error(`no sign-in e-mail for ${email} over SMTP`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const to = new RegExp(`^To: .*${email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "im");
    for (;;) {
      const names = (await readdir(outbox).catch(() => [] as string[]))
        .filter((n) => n.endsWith(".eml"))
        .sort();
      for (const name of names.reverse()) {
        const path = join(outbox, name);
        const message = await readFile(path, "utf8");
        const { mtimeMs } = await stat(path);
        if (!to.test(message) || mtimeMs < since) continue;
        const token = magicLinkTokenOf(message);
        if (handedOut.has(token)) continue;
        handedOut.add(token);
        return token;
      }
      if (Date.now() > deadline) throw new Error(`no sign-in e-mail for ${email} in ${outbox}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
}
