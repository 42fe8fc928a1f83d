// Hostile webhook receivers on loopback ports, for the outbound-send deadline tests: one trickles
// its answer's head a byte at a time (so a socket idle timeout never fires), one floods an
// endless-looking answer body as fast as the connection takes it.
import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Server } from "node:net";

export interface SlowReceiver {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Connections the client has not closed yet. */
  readonly open: number;
  close(): Promise<void>;
}

async function listen(server: Server, counts: { accepted: number; open: number }) {
  server.on("connection", (socket) => {
    counts.accepted += 1;
    counts.open += 1;
    socket.once("close", () => (counts.open -= 1));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Answers every request with `HTTP/1.1 200 OK` and then an endless header line, one byte every
 * `intervalMs`, for `forMs` in all; then it hangs up without finishing the head.
 */
export async function startTrickleReceiver(options: {
  intervalMs: number;
  forMs: number;
}): Promise<SlowReceiver> {
  const counts = { accepted: 0, open: 0 };
  const server = createTcpServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", () => {
      const head = Buffer.from("HTTP/1.1 200 OK\r\nX-Trickle: ");
      let sent = 0;
      const started = Date.now();
      const timer = setInterval(() => {
        if (Date.now() - started >= options.forMs) {
          clearInterval(timer);
          socket.destroy();
          return;
        }
        socket.write(sent < head.length ? head.subarray(sent, sent + 1) : "a");
        sent += 1;
      }, options.intervalMs);
      socket.once("close", () => clearInterval(timer));
    });
  });
  const url = await listen(server, counts);
  return {
    url,
    get accepted() {
      return counts.accepted;
    },
    get open() {
      return counts.open;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

export interface FloodReceiver extends SlowReceiver {
  /** Whether some answer was written to its end (the client read it all). */
  readonly finished: boolean;
}

/** Answers 200 with a body of `bytes`, written as fast as the connection takes it. */
export async function startFloodReceiver(bytes: number): Promise<FloodReceiver> {
  const counts = { accepted: 0, open: 0 };
  let finished = false;
  const chunk = Buffer.alloc(64 * 1024, "x");
  const server = createHttpServer((request, response) => {
    request.resume();
    response.on("error", () => undefined);
    response.writeHead(200, { "content-type": "text/plain", "content-length": bytes });
    let left = bytes;
    const pump = () => {
      while (left > 0 && !response.destroyed) {
        const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= part.length;
        if (!response.write(part)) {
          response.once("drain", pump);
          return;
        }
      }
      if (left === 0 && !response.destroyed) response.end(() => (finished = true));
    };
    pump();
  });
  const url = await listen(server, counts);
  return {
    url,
    get accepted() {
      return counts.accepted;
    },
    get open() {
      return counts.open;
    },
    get finished() {
      return finished;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
