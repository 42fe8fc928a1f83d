// One run of an uptime check: the request with its method and headers, the target guard on the
// lookup (as for webhooks), one absolute deadline, no redirects followed (a redirect could lead to
// a refused address; it is judged by its own status), and at most maxBodyBytes of the answer read
// when looking for the expected text. Never throws: every failure is a result with its reason.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { UPTIME_LIMITS } from "@sightline/contracts";
import { assertDeliverable, guardedLookup } from "../alerts/index.js";

export interface ProbeSpec {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly expectedStatus: number;
  readonly bodyContains: string | null;
}

export interface ProbeResult {
  readonly ok: boolean;
  /** Null when no answer came. */
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
}

export async function probe(spec: ProbeSpec, allowPrivateTargets: boolean): Promise<ProbeResult> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  let url: URL;
  try {
    url = new URL(spec.url);
    assertDeliverable(url, allowPrivateTargets);
  } catch (error) {
    return { ok: false, statusCode: null, latencyMs: 0, error: (error as Error).message };
  }
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<ProbeResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    let latency = 0;
    const chunks: Buffer[] = [];
    let read = 0;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.destroy();
      resolve({
        ok: error === null,
        statusCode: status,
        latencyMs: status === null ? elapsed() : latency,
        error,
      });
    };
    const judge = () => {
      if (status !== spec.expectedStatus) {
        finish(`answered HTTP ${String(status)}, expected ${spec.expectedStatus}`);
        return;
      }
      if (spec.bodyContains !== null && !Buffer.concat(chunks).toString("utf8").includes(spec.bodyContains)) {
        finish("the answer's body does not contain the expected text");
        return;
      }
      finish(null);
    };
    const deadline = setTimeout(() => finish(`no answer within ${spec.timeoutMs} ms`), spec.timeoutMs);
    const req = send(
      url,
      {
        method: spec.method,
        headers: { "user-agent": "Sightline-Uptime/1", ...spec.headers },
        lookup: guardedLookup(allowPrivateTargets),
        agent: false,
      },
      (response) => {
        status = response.statusCode ?? 0;
        // Latency is time to the answer's status line and headers.
        latency = elapsed();
        if (spec.bodyContains === null || status !== spec.expectedStatus) {
          judge();
          return;
        }
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          read += chunk.length;
          if (read >= UPTIME_LIMITS.maxBodyBytes) judge();
        });
        response.on("end", judge);
        response.on("error", () => finish("the answer broke off"));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ETARGETREFUSED") finish(error.message);
      else finish(`${url.host}: ${error.code ?? "connection failed"}`);
    });
    req.end();
  });
}
