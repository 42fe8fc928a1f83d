// Validation errors from each usual validator, in real apps instrumented with the SDK and sending
// to a real Sightline: the request detail shows field path, rule and message and never the value;
// the endpoint's top validation errors count them by field. Also the scheme of each record.
import "reflect-metadata";
import { createServer } from "node:http";
import { Body, Controller, Module, Post, ValidationPipe } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import type { NestExpressApplication } from "@nestjs/platform-express";
import { Ajv } from "ajv";
import { IsEmail, IsInt, Min } from "class-validator";
import express from "express";
import { body, validationResult } from "express-validator";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { sightlineErrorHandler, sightlineMiddleware } from "../src/adapters/express.js";
import { sightlinePlugin } from "../src/adapters/fastify.js";
import { SightlineModule } from "../src/adapters/nestjs.js";
import { createSightline, recordValidationErrors, type Sightline } from "../src/index.js";
import { eventually, listen, type RealSightline, startSightline } from "./support/sightline.js";

/** A value no stored field may contain: the SDK must never send what the client typed. */
const SECRET = "hunter2-secret-value";

interface Served {
  url: string;
  close(): Promise<void>;
}

function expressApp(sdk: Sightline): express.Express {
  const app = express();
  app.set("trust proxy", true);
  app.use(sightlineMiddleware(sdk));
  app.use(express.json());
  const Order = z.object({ email: z.email(), qty: z.number().int().min(1), tier: z.enum(["a", "b"]) });
  // Thrown: the error handler sees the ZodError, the app's own handler answers 400.
  app.post("/zod", (req, res) => {
    res.json(Order.parse(req.body));
  });
  // express-validator: the app answers 422 itself; the SDK reads the checks from the request.
  app.post("/express-validator", body("email").isEmail(), body("qty").isInt({ min: 1 }), (req, res) => {
    const result = validationResult(req);
    if (!result.isEmpty()) {
      res.status(422).json({ errors: result.array().length });
      return;
    }
    res.json({ ok: true });
  });
  // ajv, answered by hand with recordValidationErrors.
  const ajv = new Ajv({ allErrors: true });
  const validate = ajv.compile({
    type: "object",
    properties: { email: { type: "string", maxLength: 5 }, qty: { type: "integer", minimum: 1 } },
    required: ["email", "qty"],
  });
  app.post("/ajv", (req, res) => {
    if (!validate(req.body)) {
      recordValidationErrors(req, validate.errors);
      res.status(400).json({ errors: validate.errors?.length });
      return;
    }
    res.json({ ok: true });
  });
  app.use(sightlineErrorHandler(sdk));
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(error instanceof z.ZodError ? 400 : 500).json({ error: "bad" });
  });
  return app;
}

async function fastifyApp(sdk: Sightline): Promise<Served> {
  const app = Fastify();
  await app.register(sightlinePlugin(sdk));
  app.post(
    "/fastify",
    {
      schema: {
        body: {
          type: "object",
          properties: { email: { type: "string", format: "email" }, qty: { type: "integer", minimum: 1 } },
          required: ["email", "qty"],
        },
      },
    },
    async () => ({ ok: true }),
  );
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

class SignupDto {
  email!: string;
  age!: number;
}
IsEmail()(SignupDto.prototype, "email");
IsInt()(SignupDto.prototype, "age");
Min(18)(SignupDto.prototype, "age");

class SignupController {
  signup(dto: SignupDto) {
    return { ok: dto.email };
  }
}
{
  const descriptor = Object.getOwnPropertyDescriptor(
    SignupController.prototype,
    "signup",
  ) as PropertyDescriptor;
  Reflect.defineMetadata("design:paramtypes", [SignupDto], SignupController.prototype, "signup");
  Body()(SignupController.prototype, "signup", 0);
  Post("nest")(SignupController.prototype, "signup", descriptor);
  Controller()(SignupController);
}

async function nestApp(sdk: Sightline): Promise<Served> {
  class AppModule {}
  Module({ imports: [SightlineModule.forRoot(sdk)], controllers: [SignupController] })(AppModule);
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger: false });
  app.useGlobalPipes(new ValidationPipe());
  await app.listen(0, "127.0.0.1");
  return { url: await app.getUrl(), close: () => app.close() };
}

describe("validation errors of the usual validators, sent to a real Sightline", () => {
  let sightline: RealSightline;
  let sdk: Sightline;
  const served: Served[] = [];
  const urls: Record<string, string> = {};

  const post = (base: string, path: string, payload: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(payload),
    }).then(async (res) => ({ status: res.status, text: await res.text() }));

  beforeAll(async () => {
    sightline = await startSightline();
    sdk = createSightline({
      apiKey: sightline.key,
      app: sightline.app,
      url: sightline.url,
      flushIntervalMs: 50,
      logger: { warn: () => undefined },
    });
    const ex = await listen(createServer(expressApp(sdk)));
    served.push(ex);
    urls.express = ex.url;
    const fa = await fastifyApp(sdk);
    served.push(fa);
    urls.fastify = fa.url;
    const ne = await nestApp(sdk);
    served.push(ne);
    urls.nest = ne.url.replace("[::1]", "127.0.0.1");
  });

  afterAll(async () => {
    for (const s of served) await s.close();
    await sdk?.close();
    await sightline?.close();
  });

  const detailOf = async (route: string) => {
    const [record] = await eventually(
      () => sightline.requests({ route }),
      (rows) => rows.length > 0,
    );
    expect(record, `a record of ${route}`).toBeDefined();
    return sightline.requestDetail((record as { id: string }).id);
  };

  it("zod: a thrown ZodError answered 400 carries each field's path, code and message", async () => {
    const answer = await post(urls.express as string, "/zod", { email: SECRET, qty: 0, tier: SECRET });
    expect(answer.status).toBe(400);
    const detail = await detailOf("/zod");
    expect(detail.status_code).toBe(400);
    expect(detail.validation_errors.map((e) => [e.path, e.rule])).toEqual([
      ["email", "invalid_format"],
      ["qty", "too_small"],
      ["tier", "invalid_value"],
    ]);
    expect(detail.validation_errors.every((e) => e.message !== "")).toBe(true);
    expect(JSON.stringify(detail.validation_errors)).not.toContain(SECRET);
    // A validation failure is the answer, not an exception: no error log for it.
    const logs = await sightline.logs({ levels: "ERROR" });
    expect(logs.filter((log) => log.trace_id === detail.trace_id)).toEqual([]);
  });

  it("express-validator: the checks are read from the request the app answered 422", async () => {
    const answer = await post(urls.express as string, "/express-validator", { email: SECRET, qty: "x" });
    expect(answer.status).toBe(422);
    const detail = await detailOf("/express-validator");
    expect(detail.validation_errors).toEqual([
      { path: "body.email", rule: "invalid", message: "Invalid value" },
      { path: "body.qty", rule: "invalid", message: "Invalid value" },
    ]);
  });

  it("ajv: errors passed to recordValidationErrors name the field (required ones too) and keyword", async () => {
    const answer = await post(urls.express as string, "/ajv", { email: SECRET });
    expect(answer.status).toBe(400);
    const detail = await detailOf("/ajv");
    expect(detail.validation_errors.map((e) => [e.path, e.rule])).toEqual([
      ["qty", "required"],
      ["email", "maxLength"],
    ]);
    expect(JSON.stringify(detail.validation_errors)).not.toContain(SECRET);
  });

  it("Fastify: its schema errors are recorded with the part of the request they are in", async () => {
    const answer = await post(urls.fastify as string, "/fastify", { email: SECRET });
    expect(answer.status).toBe(400);
    const detail = await detailOf("/fastify");
    expect(detail.validation_errors.map((e) => [e.path, e.rule])).toEqual([["body.qty", "required"]]);
    expect(detail.validation_errors[0]?.message).toBe("must have required property 'qty'");
  });

  it("NestJS ValidationPipe: class-validator's property and constraint, the answer unchanged", async () => {
    const answer = await post(urls.nest as string, "/nest", { email: SECRET, age: 12 });
    expect(answer.status).toBe(400);
    // What the client gets is Nest's own answer, with no trace of the SDK.
    expect(JSON.parse(answer.text)).toEqual({
      message: ["email must be an email", "age must not be less than 18"],
      error: "Bad Request",
      statusCode: 400,
    });
    const detail = await detailOf("/nest");
    expect(detail.validation_errors).toEqual([
      { path: "email", rule: "isEmail", message: "email must be an email" },
      { path: "age", rule: "min", message: "age must not be less than 18" },
    ]);
  });

  it("counts an endpoint's validation errors by field and rule", async () => {
    for (let i = 0; i < 2; i += 1) await post(urls.express as string, "/ajv", { email: "ok", qty: 0 });
    const reply = await eventually(
      async () =>
        sightline.fixture.api.get(
          `/api/v1/apps/${sightline.app}/analytics/endpoint-validation-errors?method=POST&path=${encodeURIComponent("/ajv")}`,
        ),
      (r) => (r.json<{ occurrences: number }[]>()[0]?.occurrences ?? 0) >= 2,
    );
    expect(reply.statusCode).toBe(200);
    const rows = reply.json<{ path: string; rule: string; occurrences: number; requests: number }[]>();
    expect(rows.map((r) => [r.path, r.rule, r.occurrences, r.requests])).toEqual([
      ["qty", "minimum", 2, 2],
      ["email", "maxLength", 1, 1],
      ["qty", "required", 1, 1],
    ]);
  });

  it("sends each request's scheme, from X-Forwarded-Proto where the app trusts proxies", async () => {
    await post(
      urls.express as string,
      "/ajv?via=proxy",
      { email: "ok", qty: 1 },
      { "x-forwarded-proto": "https" },
    );
    await post(
      urls.fastify as string,
      "/fastify?via=direct",
      { email: "a@b.co", qty: 1 },
      {
        "x-forwarded-proto": "https",
      },
    );
    const rows = await eventually(
      () => sightline.requests({ path_filter: "*via=*" }),
      (list) => list.length >= 2,
    );
    const schemes = await Promise.all(
      rows.map(async (row) => [row.query, (await sightline.requestDetail(row.id)).scheme]),
    );
    // Express trusts the proxy here; Fastify was not told to, so the socket's scheme stands.
    expect(Object.fromEntries(schemes)).toEqual({ "via=proxy": "https", "via=direct": "http" });
  });
});
