// Mail delivery: the development outbox (.eml file plus one log line), SMTP with credentials
// from the URL, and the send queue's retries, give-up and flush-on-close.
import { readdir, readFile, stat } from "node:fs/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createMailQueue,
  createOutboxTransport,
  createSmtpTransport,
  magicLinkMail,
} from "../../src/modules/auth/mail/index.js";
import { createTestContext } from "../support/app.js";
import { decodeQuotedPrintable, magicLinkTokenOf } from "../support/mail.js";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp.js";

const TOKEN = "kV7hQ2mZ0pY4sW9cT1bN6xR3fJ8uL5aE0dG2iK7oMqS";
const URL_WITH_TOKEN = `https://sightline.test/auth/verify?token=${TOKEN}`;
const mail = (to = "ada@example.com") =>
  magicLinkMail({ to, url: URL_WITH_TOKEN, token: TOKEN, validMinutes: 15 });

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

function capturingLogger() {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { logger: pino({ level: "info" }, stream), lines };
}

describe("development mailer", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "sightline-outbox-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes the message as an .eml file and logs `magic link for <email>: <url>`", async () => {
    const { logger, lines } = capturingLogger();
    const outbox = join(dir, "outbox");
    await createOutboxTransport(outbox, "Sightline <no-reply@localhost>", logger).deliver(mail());

    const names = await readdir(outbox);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/\.eml$/);
    const raw = await readFile(join(outbox, names[0] as string), "utf8");
    expect(raw).toMatch(/^From: Sightline <no-reply@localhost>$/m);
    expect(raw).toMatch(/^To: ada@example\.com$/m);
    expect(raw).toMatch(/^Subject: Sign in to Sightline$/m);
    expect(magicLinkTokenOf(raw)).toBe(TOKEN);
    expect(decodeQuotedPrintable(raw)).toContain(URL_WITH_TOKEN);
    expect((await stat(join(outbox, names[0] as string))).mode & 0o777).toBe(0o600);

    expect(lines.map((line) => line.msg)).toEqual([`magic link for ada@example.com: ${URL_WITH_TOKEN}`]);
  });

  it("is what the app uses without SMTP_URL: a magic-link request lands in DATA_DIR/outbox", async () => {
    const ctx = await createTestContext({ env: { PUBLIC_URL: "https://sightline.test" } });
    try {
      const response = await ctx.app.inject({
        method: "POST",
        url: "/api/v1/auth/magic-link",
        payload: { email: "dev@example.com" },
      });
      expect(response.statusCode).toBe(200);
      await ctx.deps.mail.flush();
      expect(ctx.config.paths.outbox).toBe(join(ctx.dataDir, "outbox"));
      const names = await readdir(ctx.config.paths.outbox);
      expect(names).toHaveLength(1);
      const raw = await readFile(join(ctx.config.paths.outbox, names[0] as string), "utf8");
      expect(decodeQuotedPrintable(raw)).toContain("https://sightline.test/auth/verify?token=");
    } finally {
      await ctx.close();
    }
  });
});

describe("SMTP delivery and the send queue", () => {
  let smtp: TestSmtpServer;
  afterEach(async () => {
    await smtp.close();
  });

  it("authenticates with the credentials in SMTP_URL and sends from MAIL_FROM", async () => {
    smtp = await startSmtpServer({ user: "mailer", password: "p@ss word" });
    const transport = createSmtpTransport(smtp.url, "Sightline <signin@sightline.test>");
    await transport.deliver(mail());
    transport.close();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({
      user: "mailer",
      from: "signin@sightline.test",
      to: ["ada@example.com"],
    });
    expect(magicLinkTokenOf(smtp.received[0]?.raw ?? "")).toBe(TOKEN);
  });

  it("retries a refused delivery with pauses, then delivers", async () => {
    smtp = await startSmtpServer();
    smtp.refuseNext(2);
    const { logger, lines } = capturingLogger();
    const queue = createMailQueue(createSmtpTransport(smtp.url, "s@sightline.test"), logger, {
      retryDelaysMs: [20, 20, 20],
    });
    queue.enqueue(mail());
    await queue.flush();
    expect(smtp.received).toHaveLength(1);
    expect(lines.filter((line) => line.msg === "mail delivery failed; retrying")).toHaveLength(2);
    await queue.close();
  });

  it("gives up after the last retry and logs it without the link or token", async () => {
    smtp = await startSmtpServer();
    smtp.refuseNext(10);
    const { logger, lines } = capturingLogger();
    const queue = createMailQueue(createSmtpTransport(smtp.url, "s@sightline.test"), logger, {
      retryDelaysMs: [10, 10],
    });
    queue.enqueue(mail());
    await queue.flush();
    expect(smtp.received).toHaveLength(0);
    expect(lines.filter((line) => line.msg === "mail delivery failed; giving up")).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    await queue.close();
  });

  it("close() delivers what is queued before closing the transport", async () => {
    smtp = await startSmtpServer();
    const { logger } = capturingLogger();
    const queue = createMailQueue(createSmtpTransport(smtp.url, "s@sightline.test"), logger);
    queue.enqueue(mail("one@example.com"));
    queue.enqueue(mail("two@example.com"));
    await queue.close();
    expect(smtp.received.flatMap((received) => received.to).sort()).toEqual([
      "one@example.com",
      "two@example.com",
    ]);
    // Closed: later mail is dropped (and logged), never sent on a closed transport.
    queue.enqueue(mail("late@example.com"));
    await queue.flush();
    expect(smtp.mailsTo("late@example.com")).toHaveLength(0);
  });
});
