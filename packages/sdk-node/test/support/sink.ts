// A stand-in ingest endpoint that keeps what the SDK sends, decompressed and parsed, and
// acknowledges every batch: for suites about what goes on the wire rather than what is stored.
import { createServer } from "node:http";
import { gunzipSync } from "node:zlib";
import { listen } from "./sightline.js";

export interface Sink {
  readonly url: string;
  readonly requests: Record<string, unknown>[];
  readonly logs: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const received = { requests: [] as Record<string, unknown>[], logs: [] as Record<string, unknown>[] };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const kind = (req.url ?? "").endsWith("/logs") ? "logs" : "requests";
    const raw = Buffer.concat(chunks);
    const text = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
    const records =
      (JSON.parse(text.toString("utf8")) as Record<string, Record<string, unknown>[]>)[kind] ?? [];
    received[kind].push(...records);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ accepted: records.length, rejected: 0, errors: [] }));
  });
  const served = await listen(server);
  return { url: served.url, ...received, close: served.close };
}
