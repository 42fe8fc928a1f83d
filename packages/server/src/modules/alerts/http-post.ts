// One outgoing JSON POST for webhook and Slack channels: bounded in time, never following
// redirects (a redirect could lead to a refused address), with the target guard on the lookup.
// Failures are described without the URL's path or query, which may carry a secret (Slack).
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { assertDeliverable, guardedLookup } from "./target-guard.js";

export interface PostOptions {
  readonly allowPrivateTargets: boolean;
  readonly timeoutMs: number;
}

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
  await new Promise<void>((resolve, reject) => {
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
        timeout: options.timeoutMs,
      },
      (response) => {
        // Drain (bounded by the timeout) so the socket is released; the body is not needed.
        response.resume();
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new DeliveryError(`${url.host} answered HTTP ${status}`));
        });
        response.on("error", () => reject(new DeliveryError(`${url.host}: the answer broke off`)));
      },
    );
    req.on("timeout", () => {
      req.destroy(
        new DeliveryError(`${url.host} did not answer within ${Math.round(options.timeoutMs / 1000)} s`),
      );
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error instanceof DeliveryError) reject(error);
      else if (error.code === "ETARGETREFUSED") reject(new DeliveryError(error.message));
      else reject(new DeliveryError(`${url.host}: ${error.code ?? "connection failed"}`));
    });
    req.end(body);
  });
}
