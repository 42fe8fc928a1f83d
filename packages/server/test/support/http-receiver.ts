// A real HTTP receiver on a loopback port for webhook tests: records every POST (headers and raw
// body), answers 200, or 500 for the next N requests when told to fail, or holds the requests on
// a path unanswered until released (a slow receiver).
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface HttpReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly received: readonly ReceivedRequest[];
  /** Paths of all requests in the order they arrived, answered, failed or held. */
  readonly arrivals: readonly string[];
  /** Requests received on `path`. */
  on(path: string): ReceivedRequest[];
  /** The next `count` requests on `path` are answered 500 (and recorded in `failed`). */
  failNext(count: number, path: string): void;
  readonly failed: readonly ReceivedRequest[];
  /** Requests on `path` wait unanswered until `release(path)`. */
  hold(path: string): void;
  /** Answers what `path` holds (and stops holding it). */
  release(path: string): void;
  /** Requests on `path` waiting unanswered now. */
  holding(path: string): number;
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const received: ReceivedRequest[] = [];
  const arrivals: string[] = [];
  const failed: ReceivedRequest[] = [];
  const failures = new Map<string, number>();
  const held = new Map<string, Array<() => void>>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = {
        path: request.url ?? "/",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      arrivals.push(entry.path);
      const left = failures.get(entry.path) ?? 0;
      if (left > 0) {
        failures.set(entry.path, left - 1);
        failed.push(entry);
        response.writeHead(500).end("try again");
        return;
      }
      const answer = () => {
        received.push(entry);
        response.writeHead(200, { "content-type": "text/plain" }).end("ok");
      };
      const waiting = held.get(entry.path);
      if (waiting === undefined) answer();
      else waiting.push(answer);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    arrivals,
    failed,
    on: (path) => received.filter((entry) => entry.path === path),
    failNext(count, path) {
      failures.set(path, count);
    },
    hold(path) {
      held.set(path, held.get(path) ?? []);
    },
    release(path) {
      const waiting = held.get(path) ?? [];
      held.delete(path);
      for (const answer of waiting) answer();
    },
    holding: (path) => held.get(path)?.length ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
