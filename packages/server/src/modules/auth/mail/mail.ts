// What a mail is and who delivers it: an SMTP server (nodemailer) when SMTP_URL is set, else
// the development outbox, which writes each message as an .eml file and logs a one-line summary.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /**
   * One line for the development log, e.g. `magic link for a@b.c: <url>`. It may hold a secret,
   * so only the development outbox prints it; the SMTP transport never logs it.
   */
  readonly devSummary: string;
}

export interface MailTransport {
  readonly kind: "smtp" | "outbox";
  deliver(mail: Mail): Promise<void>;
  close(): void;
}

export function createSmtpTransport(smtpUrl: string, from: string): MailTransport {
  // Timeouts well below nodemailer's minutes-long defaults: a stuck server must not hold the
  // send queue; failed attempts are retried by the queue.
  const transporter = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from },
  );
  return {
    kind: "smtp",
    async deliver(mail) {
      await transporter.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close: () => transporter.close(),
  };
}

export function createOutboxTransport(outboxDir: string, from: string, logger: Logger): MailTransport {
  // streamTransport renders the exact RFC 5322 message an SMTP server would receive.
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  let sequence = 0;
  return {
    kind: "outbox",
    async deliver(mail) {
      const info = await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      // Names sort by creation: timestamp, then a per-process sequence for the same millisecond.
      sequence += 1;
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const name = `${stamp}-${String(sequence).padStart(6, "0")}-${randomBytes(3).toString("hex")}.eml`;
      await writeFile(join(outboxDir, name), info.message, { mode: 0o600 });
      logger.info({ eml: name }, mail.devSummary);
    },
    close: () => transporter.close(),
  };
}
