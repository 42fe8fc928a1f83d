// Reading sign-in e-mails in tests: the development outbox (.eml files) and raw messages
// received by a test SMTP server. Tokens are read the way a person would: from the link.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** Undoes quoted-printable soft line breaks and escapes, enough to read links in a message. */
export function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] as string, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The token of the sign-in link in a raw RFC 5322 message; throws when there is none. */
export function magicLinkTokenOf(rawMessage: string): string {
  const match = /\/auth\/verify\?token=([A-Za-z0-9_-]{43,})/.exec(decodeQuotedPrintable(rawMessage));
  if (match === null) throw new Error(`no sign-in link in message:\n${rawMessage}`);
  return match[1] as string;
}

/** The raw .eml messages in the outbox addressed to `email`, oldest first. */
export async function outboxMessagesFor(outboxDir: string, email: string): Promise<string[]> {
  const names = (await readdir(outboxDir).catch(() => [] as string[]))
    .filter((n) => n.endsWith(".eml"))
    .sort();
  const messages = await Promise.all(names.map((name) => readFile(join(outboxDir, name), "utf8")));
  const to = new RegExp(`^To: .*${email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "im");
  return messages.filter((message) => to.test(message));
}

/** The token of the invitation link in a raw message; throws when there is none. */
export function invitationTokenOf(rawMessage: string): string {
  const match = /\/invitations\/accept\?token=([A-Za-z0-9_-]{43,})/.exec(decodeQuotedPrintable(rawMessage));
  if (match === null) throw new Error(`no invitation link in message:\n${rawMessage}`);
  return match[1] as string;
}
