// One POST of an encoded batch to Sightline over node:http(s) with a keep-alive agent, a
// deadline, and an outcome instead of an exception: the shipper decides what a failure means.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

export type PostOutcome =
  | {
      readonly kind: "answer";
      readonly status: number;
      readonly retryAfter: string | undefined;
      readonly body: string;
    }
  | { readonly kind: "network"; readonly error: Error };

export interface PostTarget {
  readonly url: URL;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly userAgent: string;
}

/** Answers longer than this are cut: the shipper reads counts and a problem's detail, no more. */
const MAX_ANSWER_BYTES = 64 * 1024;

export function createPoster(target: PostTarget) {
  const secure = target.url.protocol === "https:";
  // Idle sockets of an Agent are unref'd by Node, so a kept-alive connection never holds the
  // host process open.
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets: 4 })
    : new HttpAgent({ keepAlive: true, maxSockets: 4 });
  const send = secure ? httpsRequest : httpRequest;

  /** `hold`: keep the process alive for this request (close() does; background sends do not). */
  function post(
    path: string,
    body: Buffer,
    headers: Record<string, string>,
    hold: boolean,
  ): Promise<PostOutcome> {
    return new Promise((resolve) => {
      let settled = false;
      let answered = false;
      const settle = (outcome: PostOutcome) => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      const req = send(
        new URL(path, target.url),
        {
          method: "POST",
          agent,
          headers: {
            "content-length": String(body.length),
            "x-api-key": target.apiKey,
            "user-agent": target.userAgent,
            ...headers,
          },
        },
        (res: IncomingMessage) => {
          answered = true;
          const chunks: Buffer[] = [];
          let length = 0;
          res.on("data", (chunk: Buffer) => {
            if (length < MAX_ANSWER_BYTES) chunks.push(chunk);
            length += chunk.length;
          });
          res.on("end", () => {
            const retryAfter = res.headers["retry-after"];
            settle({
              kind: "answer",
              status: res.statusCode ?? 0,
              retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
              body: Buffer.concat(chunks).toString("utf8"),
            });
          });
          res.on("error", (error) => settle({ kind: "network", error }));
          res.on("close", () => settle({ kind: "network", error: new Error("answer cut short") }));
        },
      );
      // The deadline covers connecting, sending and reading the answer.
      const timer = setTimeout(() => {
        req.destroy(new Error(`no answer from Sightline within ${target.timeoutMs} ms`));
      }, target.timeoutMs);
      timer.unref();
      req.on("socket", (socket) => {
        // The agent re-refs a reused socket; set it for this request's purpose each time.
        if (hold) socket.ref();
        else socket.unref();
      });
      req.on("error", (error) => settle({ kind: "network", error }));
      req.on("close", () => {
        clearTimeout(timer);
        if (!answered) settle({ kind: "network", error: new Error("connection closed before an answer") });
      });
      req.end(body);
    });
  }

  return { post, close: () => agent.destroy() };
}

export type Poster = ReturnType<typeof createPoster>;
