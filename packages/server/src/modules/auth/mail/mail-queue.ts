// The in-process send queue: HTTP answers never wait for mail. Each message is tried a few
// times with growing pauses; a final failure is logged (without the message's secrets).
// Pending mail lives in memory only: a crash loses it, and the user asks for a new link.
import type { Logger } from "pino";
import type { Mail, MailTransport } from "./mail.js";

export interface MailQueue {
  /** Accepts a message for delivery in the background; never throws, never waits. */
  enqueue(mail: Mail): void;
  /** Resolves when every message accepted so far is delivered or has given up. */
  flush(): Promise<void>;
  /** Flushes (bounded by `timeoutMs`), then closes the transport. Idempotent. */
  close(timeoutMs?: number): Promise<void>;
}

export interface MailQueueOptions {
  /** Pauses before each retry; the number of entries is the number of retries. */
  readonly retryDelaysMs?: readonly number[];
  /** Messages beyond this many pending are dropped (and logged) rather than piling up. */
  readonly maxPending?: number;
}

const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];

export function createMailQueue(
  transport: MailTransport,
  logger: Logger,
  options: MailQueueOptions = {},
): MailQueue {
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxPending = options.maxPending ?? 1_000;
  const pending = new Set<Promise<void>>();
  /** Wakes every retry pause early (at shutdown). */
  const wakers = new Set<() => void>();
  let closing: Promise<void> | undefined;
  let closed = false;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });

  async function flush(): Promise<void> {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  }

  async function deliver(mail: Mail): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await transport.deliver(mail);
        return;
      } catch (error) {
        const delay = retryDelaysMs[attempt];
        if (delay === undefined || closed) {
          logger.error(
            { err: error, attempts: attempt + 1, subject: mail.subject },
            "mail delivery failed; giving up",
          );
          return;
        }
        logger.warn({ err: error, attempt: attempt + 1, retryInMs: delay }, "mail delivery failed; retrying");
        await pause(delay);
        if (closed) {
          logger.error(
            { attempts: attempt + 1, subject: mail.subject },
            "mail not delivered before shutdown",
          );
          return;
        }
      }
    }
  }

  return {
    enqueue(mail) {
      if (closed || pending.size >= maxPending) {
        logger.error({ pending: pending.size, subject: mail.subject }, "mail queue full or closed; dropped");
        return;
      }
      const task = deliver(mail).finally(() => pending.delete(task));
      pending.add(task);
    },
    flush,
    close(timeoutMs = 10_000) {
      closing ??= (async () => {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), timeoutMs);
        });
        const outcome = await Promise.race([flush().then(() => "done" as const), timedOut]);
        clearTimeout(timer);
        closed = true;
        if (outcome === "timeout") {
          for (const wake of [...wakers]) wake();
          await Promise.race([flush(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
        }
        transport.close();
      })();
      return closing;
    },
  };
}
