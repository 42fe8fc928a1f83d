// Log integrations against a real Sightline: pino (destination stream), winston (transport)
// and console capture, from handlers of a real Express app, including after a body parser and
// across awaits. Every line must arrive linked to the request it was logged for.
import { createServer } from "node:http";
import { PassThrough } from "node:stream";
import express from "express";
import pino from "pino";
import winston from "winston";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sightlineMiddleware } from "../src/adapters/express.js";
import { createSightline, type Sightline } from "../src/index.js";
import { sightlinePinoStream } from "../src/logs/pino.js";
import { sightlineWinston } from "../src/logs/winston.js";
import {
  eventually,
  listen,
  type RealSightline,
  type StoredLog,
  type StoredRequest,
  startSightline,
} from "./support/sightline.js";

describe("pino, winston and console logs from a real app arrive linked to their requests", () => {
  let sightline: RealSightline;
  let sdk: Sightline;
  let served: { url: string; close(): Promise<void> };
  let requests: StoredRequest[];
  let logs: StoredLog[];
  const printed: string[] = [];
  const PARALLEL = 20;

  beforeAll(async () => {
    sightline = await startSightline();
    sdk = createSightline({
      apiKey: sightline.key,
      app: sightline.app,
      url: sightline.url,
      environment: "production",
      captureConsole: true,
      flushIntervalMs: 50,
    });
    const sink = { write: (line: string) => void printed.push(line) };
    const logger = pino(
      { name: "orders" },
      pino.multistream([{ stream: sink }, { stream: sightlinePinoStream(sdk) }]),
    );
    const wlogger = winston.createLogger({
      level: "debug",
      transports: [
        new winston.transports.Stream({ stream: new PassThrough() }),
        sightlineWinston(sdk, { loggerName: "billing" }),
      ],
    });
    const app = express();
    app.use(sightlineMiddleware(sdk));
    app.use(express.json());
    app.post("/work/:n", async (req, res) => {
      const n = String(req.params.n);
      logger.info({ n, step: "start", detail: { nested: true } }, `pino line ${n}`);
      await new Promise((resolve) => setTimeout(resolve, Number(n) % 5));
      wlogger.warn(`winston line ${n}`, { n });
      await Promise.resolve();
      // eslint-disable-next-line no-console -- the console capture under test
      console.error("console line %s", n);
      res.json({ n });
    });
    served = await listen(createServer(app));
    await Promise.all(
      Array.from({ length: PARALLEL }, (_, n) =>
        fetch(`${served.url}/work/${n}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        }),
      ),
    );
    logger.info("outside any request");
    await sdk.close();
    requests = await sightline.requests();
    logs = await eventually(
      () => sightline.logs(),
      (items) => items.length >= 3 * PARALLEL + 1,
    );
  });

  afterAll(async () => {
    await served?.close();
    await sdk?.close();
    await sightline?.close();
  });

  const traceOf = (n: number) => requests.find((r) => r.path === `/work/${n}`)?.trace_id;

  it("sends each line once, with its level and logger", () => {
    expect(requests).toHaveLength(PARALLEL);
    expect(logs.filter((l) => l.logger_name === "orders" && l.level === "INFO")).toHaveLength(PARALLEL + 1);
    expect(logs.filter((l) => l.logger_name === "billing" && l.level === "WARNING")).toHaveLength(PARALLEL);
    expect(logs.filter((l) => l.logger_name === "console" && l.level === "ERROR")).toHaveLength(PARALLEL);
  });

  it("links every line to the request it ran for, across awaits and the body parser", () => {
    for (let n = 0; n < PARALLEL; n += 1) {
      const trace = traceOf(n);
      expect(trace).toMatch(/^[0-9a-f]{32}$/);
      for (const message of [`pino line ${n}`, `winston line ${n}`, `console line ${n}`]) {
        expect(logs.find((l) => l.message === message)?.trace_id, message).toBe(trace);
      }
    }
  });

  it("leaves lines logged outside requests unlinked", () => {
    expect(logs.find((l) => l.message === "outside any request")?.trace_id).toBe("");
  });

  it("keeps flat fields as attributes and the rest as the payload", () => {
    const line = logs.find((l) => l.message === "pino line 3");
    expect(line?.attributes).toMatchObject({ n: "3", step: "start" });
    expect(JSON.parse(line?.payload ?? "{}")).toEqual({ detail: { nested: true } });
    expect(logs.find((l) => l.message === "winston line 3")?.attributes).toMatchObject({ n: "3" });
  });

  it("still writes to the app's own destinations", () => {
    expect(printed.filter((line) => line.includes("pino line"))).toHaveLength(PARALLEL);
  });
});
