// Reading an ingest body: the only content type is JSON, optionally gzip or deflate coded.
// Decompression streams into a bounded buffer, so a small body that inflates without limit
// (a zip bomb) stops at INGEST_MAX_BODY instead of exhausting memory; the JSON is then counted
// against the item caps before anything is built (lib/capped-json.ts).
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createInflate, createInflateRaw } from "node:zlib";
import type { FastifyRequest } from "fastify";
import { INGEST_LIMITS } from "@sightline/contracts";
import { sha256Hex } from "../../lib/ids.js";
import { AppError } from "../../errors.js";
import type { App } from "../../http/types.js";
import { vetRepairedBody } from "../../http/well-formed.js";
import { type JsonCaps, JsonCapError, JsonSyntaxError, parseCappedJson } from "../../lib/capped-json.js";

export interface BodyLimits {
  /** Bytes of JSON after decompression (and of the body as sent). */
  readonly maxBytes: number;
  /** INGEST_MAX_BATCH: records a body may hold, counted before it is parsed. */
  readonly maxBatch: number;
}

/** SHA-256 of each decompressed body that carries an Idempotency-Key, by request. */
export type BodyHashes = WeakMap<FastifyRequest, string>;

/** Makes JSON (identity, gzip or deflate) the only body this plugin context accepts. */
export function registerIngestBodyParser(app: App, limits: BodyLimits, hashes: BodyHashes): void {
  const caps: JsonCaps = {
    depth: INGEST_LIMITS.bodyDepth,
    topLevelValues: INGEST_LIMITS.topLevelValues,
    records: limits.maxBatch,
    recordValues: INGEST_LIMITS.recordValues,
  };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", async (request: FastifyRequest, payload: Readable) => {
    assertUtf8(request.headers["content-type"]);
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limits.maxBytes) throw tooLarge(limits.maxBytes);
    const coding = request.headers["content-encoding"]?.trim().toLowerCase();
    const bytes = await readBody(payload, coding, limits.maxBytes);
    if (request.headers["idempotency-key"] !== undefined) {
      hashes.set(request, sha256Hex(bytes));
    }
    const body = await parseBody(bytes, caps);
    vetRepairedBody(request);
    return body;
  });
}

function assertUtf8(contentType: string | undefined): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw new AppError(
      "unsupported_media_type",
      `Ingest bodies are UTF-8 JSON; charset "${charset}" is not accepted.`,
    );
  }
}

/** The decoded body, refusing (413) as soon as more than `maxBytes` arrive or inflate. */
export async function readBody(
  payload: Readable,
  coding: string | undefined,
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  // Set by whichever limit trips first. Tearing the pipeline down makes its other stages fail
  // with their own errors (an AbortError from the decoder's iterator, say), and the pipeline
  // may reject with one of those: the limit is the answer whatever it rejects with.
  let overLimit: AppError | undefined;
  const refuse = (): AppError => (overLimit ??= tooLarge(maxBytes));
  const collect = (chunk: Buffer) => {
    total += chunk.length;
    if (total > maxBytes) throw refuse();
    chunks.push(chunk);
  };
  if (coding === undefined || coding === "" || coding === "identity") {
    try {
      for await (const chunk of payload) collect(chunk as Buffer);
    } catch (error) {
      throw overLimit ?? unreadable(error);
    }
    return Buffer.concat(chunks, total);
  }
  let sent = 0;
  const limitSent = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sent += chunk.length;
      callback(sent > maxBytes ? refuse() : null, chunk);
    },
  });
  try {
    await pipeline(payload, limitSent, decoderFor(coding), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) collect(chunk);
    });
  } catch (error) {
    if (overLimit !== undefined) throw overLimit;
    if (isZlibError(error)) {
      throw new AppError("bad_request", `The body is not valid ${coding} data.`, { cause: error });
    }
    throw unreadable(error);
  }
  return Buffer.concat(chunks, total);
}

/** The body stopped before its end (client gone, connection reset): a client-side failure. */
function unreadable(error: unknown): AppError {
  return error instanceof AppError
    ? error
    : new AppError("bad_request", "The request body could not be read to its end.", { cause: error });
}

/** gzip, or deflate in either spelling clients send: zlib-wrapped (RFC 9110) or raw. */
function decoderFor(coding: string): Transform {
  if (coding === "gzip" || coding === "x-gzip") return createGunzip();
  let decoder: Transform | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (decoder === undefined) {
        const header = chunk.length >= 2 ? chunk.readUInt16BE(0) : 0;
        const zlibWrapped = ((header >> 8) & 0x0f) === 8 && header % 31 === 0;
        decoder = zlibWrapped ? createInflate() : createInflateRaw();
        decoder.on("data", (data: Buffer) => this.push(data));
        decoder.on("error", (error) => this.destroy(error));
      }
      decoder.write(chunk, callback);
    },
    flush(callback) {
      if (decoder === undefined) return callback();
      decoder.once("end", () => callback());
      decoder.end();
    },
    // Stops inflating at once when the reader gives up (limit reached, client gone).
    destroy(error, callback) {
      decoder?.destroy();
      callback(error);
    },
  });
}

function isZlibError(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof error.code === "string" &&
    error.code.startsWith("Z_")
  );
}

/** The body's JSON, parsed under the item caps: 413 naming the cap, 400 for what is not JSON. */
async function parseBody(bytes: Buffer, caps: JsonCaps): Promise<unknown> {
  try {
    return await parseCappedJson(bytes, caps);
  } catch (error) {
    if (error instanceof JsonCapError) {
      // `limit` and `maximum` as the OTLP receivers name their caps.
      throw new AppError(
        "payload_too_large",
        `${error.message} (${CAP_NAMES[error.cap]}). Nothing was stored.`,
        {
          extensions: { limit: CAP_NAMES[error.cap], maximum: caps[error.cap] },
        },
      );
    }
    if (error instanceof JsonSyntaxError) {
      throw new AppError(
        "invalid_json",
        error.empty
          ? "The request body is empty but Content-Type says application/json."
          : "The request body is not valid JSON.",
        { cause: error },
      );
    }
    throw error;
  }
}

/** Where each cap is configured or documented, for the 413's detail. */
const CAP_NAMES: Readonly<Record<JsonCapError["cap"], string>> = {
  depth: "INGEST_LIMITS.bodyDepth",
  topLevelValues: "INGEST_LIMITS.topLevelValues",
  records: "INGEST_MAX_BATCH",
  recordValues: "INGEST_LIMITS.recordValues",
};

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    "payload_too_large",
    `The body exceeds ${maxBytes} bytes (INGEST_MAX_BODY, counted after decompression). Nothing was stored.`,
  );
}
