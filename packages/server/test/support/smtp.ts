// A real SMTP server on a loopback port for tests: it accepts every message (optionally with
// AUTH, optionally refusing the first N deliveries) and keeps the raw text for assertions.
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly raw: string;
  /** The user that authenticated the session, if any. */
  readonly user: string | undefined;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, with credentials when the server requires them. */
  readonly url: string;
  readonly received: readonly ReceivedMail[];
  /** Resolves with the first message to `address` received after `after` messages (default 0). */
  waitForMail(address: string, options?: { after?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  /** Messages received so far for `address`. */
  mailsTo(address: string): ReceivedMail[];
  /** The next `count` deliveries are refused with a temporary (451) error. */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

export async function startSmtpServer(
  options: { user?: string; password?: string } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let refusals = 0;
  const requireAuth = options.user !== undefined;

  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS offer, so the client never attempts a TLS upgrade.
    disabledCommands: requireAuth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: !requireAuth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.password) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error("Invalid username or password"));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refusals > 0) {
          refusals -= 1;
          const error = Object.assign(new Error("Try again later"), { responseCode: 451 });
          callback(error);
          return;
        }
        const mailFrom = session.envelope.mailFrom;
        received.push({
          from: mailFrom === false ? "" : mailFrom.address,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString("utf8"),
          user: typeof session.user === "string" ? session.user : undefined,
        });
        callback();
        for (const wake of [...waiters]) wake();
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  const { port } = server.server.address() as AddressInfo;
  const credentials = requireAuth
    ? `${encodeURIComponent(options.user ?? "")}:${encodeURIComponent(options.password ?? "")}@`
    : "";

  const mailsTo = (address: string) => received.filter((mail) => mail.to.includes(address.toLowerCase()));

  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    received,
    mailsTo,
    waitForMail(address, { after = 0, timeoutMs = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = mailsTo(address)[after];
          if (mail === undefined) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(mail);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no mail #${after + 1} to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    refuseNext(count) {
      refusals = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
