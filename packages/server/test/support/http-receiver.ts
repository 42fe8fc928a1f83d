// A real HTTP receiver on a loopback port for webhook tests: records every POST (headers and raw
// body), answers 200, or 500 for the next N requests when told to fail.
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
  /** Requests received on `path`. */
  on(path: string): ReceivedRequest[];
  /** The next `count` requests on `path` are answered 500 (and recorded in `failed`). */
  failNext(count: number, path: string): void;
  readonly failed: readonly ReceivedRequest[];
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const received: ReceivedRequest[] = [];
  const failed: ReceivedRequest[] = [];
  const failures = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = {
        path: request.url ?? "/",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const left = failures.get(entry.path) ?? 0;
      if (left > 0) {
        failures.set(entry.path, left - 1);
        failed.push(entry);
        response.writeHead(500).end("try again");
        return;
      }
      received.push(entry);
      response.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failed,
    on: (path) => received.filter((entry) => entry.path === path),
    failNext(count, path) {
      failures.set(path, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
