// The open-loop load generator bench:ingest and bench:fleet share: batches sent at a fixed
// arrival rate whatever the server answers, each timed from when it was due, so a stall of the
// server (or of the generator itself) shows as latency instead of slowing the senders down.
import { Agent, request } from "node:http";
import { percentile } from "./stats.js";

/** Fewest answered batches for which the p99 is not simply one of the ten slowest. */
export const MIN_P99_SAMPLES = 1000;
/** Batches in flight beyond which a due batch is dropped (counted) rather than sent: a
 *  server that stopped answering must not exhaust the generator's sockets or memory. */
const MAX_IN_FLIGHT = 5000;

export interface Answer {
  readonly status: number;
  readonly body: Buffer;
}

/** POSTs `body` to 127.0.0.1:`port` and reads the whole answer. */
export function postBody(
  agent: Agent,
  port: number,
  path: string,
  headers: Readonly<Record<string, string | number>>,
  body: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        headers: { ...headers, "content-length": body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** One sent batch's outcome: its HTTP status and the records the answer says were accepted. */
export interface Outcome {
  readonly status: number;
  readonly accepted: number;
}

export interface OpenLoopOptions {
  readonly batchesPerSecond: number;
  readonly seconds: number;
  /** Sends batch number `index` (the caller picks its body and instance). */
  send(index: number, agent: Agent): Promise<Outcome>;
}

export interface OpenLoopResult {
  readonly scheduled: number;
  /** Due batches not sent because MAX_IN_FLIGHT were still unanswered. */
  readonly dropped: number;
  readonly accepted: number;
  readonly ok: number;
  /** Answered 429 (a rate limit) and 503 (the writers full): refused, not failed. */
  readonly limited: number;
  readonly unavailable: number;
  /** Any other status, or no answer at all. */
  readonly failed: number;
  /** Milliseconds from each answered batch's due time to its answer. */
  readonly latencies: readonly number[];
  /** The generator's own worst lateness in sending a batch, ms (part of the latencies). */
  readonly worstSendLagMs: number;
}

/** Sends `batchesPerSecond × seconds` batches, batch i due at start + i / batchesPerSecond. */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });
  const interval = 1000 / options.batchesPerSecond;
  const scheduled = Math.max(1, Math.round(options.seconds * options.batchesPerSecond));
  const latencies: number[] = [];
  const counts = {
    dropped: 0,
    accepted: 0,
    ok: 0,
    limited: 0,
    unavailable: 0,
    failed: 0,
    inFlight: 0,
    worstLag: 0,
  };
  const answers: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < scheduled;) {
    // Every batch already due goes now: after a pause of the event loop they go out together,
    // each still timed from its own due time.
    const now = performance.now();
    for (; i < scheduled && start + i * interval <= now; i++) {
      const due = start + i * interval;
      counts.worstLag = Math.max(counts.worstLag, now - due);
      if (counts.inFlight >= MAX_IN_FLIGHT) {
        counts.dropped += 1;
        continue;
      }
      counts.inFlight += 1;
      answers.push(
        options.send(i, agent).then(
          ({ status, accepted }) => {
            counts.inFlight -= 1;
            latencies.push(performance.now() - due);
            if (status === 200) {
              counts.ok += 1;
              counts.accepted += accepted;
            } else if (status === 429) counts.limited += 1;
            else if (status === 503) counts.unavailable += 1;
            else counts.failed += 1;
          },
          () => {
            counts.inFlight -= 1;
            counts.failed += 1;
          },
        ),
      );
    }
    if (i < scheduled) {
      const wait = start + i * interval - performance.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
    }
  }
  await Promise.all(answers);
  agent.destroy();
  return {
    scheduled,
    dropped: counts.dropped,
    accepted: counts.accepted,
    ok: counts.ok,
    limited: counts.limited,
    unavailable: counts.unavailable,
    failed: counts.failed,
    latencies,
    worstSendLagMs: counts.worstLag,
  };
}

export interface LatencySummary {
  readonly samples: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
}

/** p50/p95/p99 of the answered batches, or null when there are too few for a p99. */
export function summarise(latencies: readonly number[]): LatencySummary | null {
  if (latencies.length < MIN_P99_SAMPLES) return null;
  return {
    samples: latencies.length,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
  };
}

/** "p50 x, p95 y, p99 z ms (n answers)", or why there is no p99. */
export function describeLatency(latencies: readonly number[]): string {
  const summary = summarise(latencies);
  return summary === null
    ? `too few answers for a p99 (${latencies.length} < ${MIN_P99_SAMPLES}): raise the rate or duration`
    : `p50 ${summary.p50.toFixed(1)}, p95 ${summary.p95.toFixed(1)}, p99 ${summary.p99.toFixed(1)} ms ` +
        `(${summary.samples} answers)`;
}
