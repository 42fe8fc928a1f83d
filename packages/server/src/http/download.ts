// Sending a file produced as it is read: attachment headers, gzip when the client accepts it,
// back-pressure from the socket, and the producer ended when the client goes away.
import { pipeline, Readable } from "node:stream";
import { createGzip } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";

export interface DownloadBody {
  readonly filename: string;
  readonly contentType: string;
  readonly body: AsyncIterable<string>;
}

/** Whether `Accept-Encoding` accepts gzip (a `q=0` refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(",").some((entry) => {
    const [coding = "", ...parameters] = entry.split(";").map((part) => part.trim().toLowerCase());
    if (coding !== "gzip" && coding !== "x-gzip") return false;
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * The reply for `download`. Readable.from pulls the body only as fast as the socket drains, and
 * Fastify destroys the stream when the connection closes, which returns the body's iterator:
 * the query behind it stops (no further page on chDB, the server query aborted over HTTP).
 */
export function sendDownload(request: FastifyRequest, reply: FastifyReply, download: DownloadBody): Readable {
  const source = Readable.from(download.body, { objectMode: false });
  void reply
    .header("content-type", download.contentType)
    .header("content-disposition", `attachment; filename="${download.filename}"`)
    .header("cache-control", "no-store")
    .header("vary", "accept-encoding");
  if (!acceptsGzip(request.headers["accept-encoding"])) return source;
  void reply.header("content-encoding", "gzip");
  // A pipeline destroys every stage when one closes early, so a disconnect reaches the source.
  return pipeline(source, createGzip(), () => {});
}
