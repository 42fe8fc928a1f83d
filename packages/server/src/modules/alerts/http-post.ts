// One outgoing JSON POST for webhook and Slack channels: ended by an absolute deadline, reading
// at most MAX_ANSWER_BYTES of the answer, never following redirects (a redirect could lead to a
// refused address), with the target guard on the lookup. Failures are described without the
// URL's path or query, which may carry a secret (Slack).
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { assertDeliverable, guardedLookup } from "./target-guard.js";

export interface PostOptions {
  readonly allowPrivateTargets: boolean;
  /** Absolute deadline of the whole send, answer included. */
  readonly timeoutMs: number;
}

/** How much of a receiver's answer is read before the connection is dropped. */
export const MAX_ANSWER_BYTES = 4 * 1024;

export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** Resolves when the target answers 2xx; throws DeliveryError with a loggable reason otherwise. */
export async function postJson(
  target: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  options: PostOptions,
): Promise<void> {
  const url = new URL(target);
  try {
    assertDeliverable(url, options.allowPrivateTargets);
  } catch (error) {
    throw new DeliveryError((error as Error).message);
  }
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const seconds = Math.round(options.timeoutMs / 1000);
  await new Promise<void>((resolve, reject) => {
    let status: number | undefined;
    let settled = false;
    /** Ends the send: by the answer's status once it is known, else with `failure`. */
    const settle = (failure?: DeliveryError) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.destroy();
      if (status === undefined) reject(failure ?? new DeliveryError(`${url.host}: the answer broke off`));
      else if (status >= 200 && status < 300) resolve();
      else reject(new DeliveryError(`${url.host} answered HTTP ${status}`));
    };
    // One deadline for the whole exchange (connect, send, answer): a socket idle timeout let a
    // receiver sending a byte every 2 s hold a send for as long as it liked.
    const deadline = setTimeout(
      () => settle(new DeliveryError(`${url.host} did not answer within ${seconds} s`)),
      options.timeoutMs,
    );
    const req = send(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "Sightline-Alerts/1",
          ...headers,
        },
        lookup: guardedLookup(options.allowPrivateTargets),
        // A socket of its own, destroyed when the send ends: nothing of a receiver outlives it.
        agent: false,
      },
      (response) => {
        status = response.statusCode ?? 0;
        // The status decides; the body is read only so far, then the connection is dropped.
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) settle();
        });
        response.on("end", () => settle());
        response.on("error", () => settle());
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ETARGETREFUSED") settle(new DeliveryError(error.message));
      else settle(new DeliveryError(`${url.host}: ${error.code ?? "connection failed"}`));
    });
    req.end(body);
  });
}
