// NestJS (tested on 11 with the Express platform; the Fastify platform takes the same middleware
// and interceptor but is untested): a global module whose middleware records every request
// (404s and guard rejections included) and whose interceptor names the controller's route and
// notes exceptions, which Nest's exception filters then answer exactly as without it.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ValidationPipe,
  type CallHandler,
  type DynamicModule,
  type ExecutionContext,
  type MiddlewareConsumer,
  Module,
  type NestInterceptor,
  type NestModule,
  RequestMethod,
} from "@nestjs/common";
import { APP_INTERCEPTOR } from "@nestjs/core";
import { type Observable, tap } from "rxjs";
import type { Sightline } from "../client.js";
import type { ConsumerInput } from "../capture/exchange.js";
import { type NodeAdapter, observeNodeRequest } from "../capture/node-http.js";
import { toTemplate } from "../capture/route.js";
import { exchangeOf, runInScope } from "../context.js";
import { NEST_VALIDATION } from "../capture/validation.js";

const OWN_ROUTE = Symbol("sightline.nest-middleware-route");

/** The injection token of the Sightline client inside a Nest app. */
export const SIGHTLINE = Symbol.for("sightline.client");

/** The parts of a Nest HTTP request the adapter reads (Express or Fastify platform). */
export interface NestRequestLike {
  raw?: IncomingMessage;
  route?: { path?: unknown };
  routeOptions?: { url?: string };
  body?: unknown;
  /** Express's or Fastify's reading of the scheme, under the platform's trust-proxy setting. */
  protocol?: string;
}

export interface NestAdapterOptions {
  /** Names the consumer when the app did not call `setConsumer(req, …)`. Default: the client's option. */
  identifyConsumer?: (req: NestRequestLike) => ConsumerInput;
}

/** Names each request's route from the controller that handles it, and notes its exceptions. */
export class SightlineInterceptor implements NestInterceptor {
  constructor(private readonly sightline: Sightline) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== "http") return next.handle();
    const req = context.switchToHttp().getRequest<NestRequestLike>();
    const exchange = exchangeOf(req);
    if (exchange === undefined) return next.handle();
    exchange.route ??= nestRoute(req);
    return next
      .handle()
      .pipe(tap({ error: (error: unknown) => this.sightline.recordError(exchange, error) }));
  }
}

/**
 * The Nest module: import it once, in the root module.
 *
 * @example
 * @Module({ imports: [SightlineModule.forRoot(sightline)], controllers: [OrdersController] })
 * export class AppModule {}
 */
export class SightlineModule {
  static forRoot(sightline: Sightline, options: NestAdapterOptions = {}): DynamicModule {
    // On Express, Nest mounts this middleware as a catch-all route: that route is not the request's.
    const adapter: NodeAdapter<NestRequestLike & { [OWN_ROUTE]?: unknown }> = {
      route: (req) => (req.route === req[OWN_ROUTE] ? undefined : nestRoute(req)),
      body: (req) => req.body,
      scheme: (req) => req.protocol,
      identify: options.identifyConsumer,
    };
    keepValidationErrors();
    const middleware = (
      req: IncomingMessage & NestRequestLike & { [OWN_ROUTE]?: unknown },
      res: ServerResponse,
      next: () => void,
    ) => {
      const exchange = sightline.enabled ? observeNodeRequest(sightline, req, res, adapter, req) : undefined;
      if (exchange !== undefined) req[OWN_ROUTE] = req.route;
      if (exchange === undefined) next();
      else runInScope(exchange, next);
    };
    class SightlineRootModule implements NestModule {
      configure(consumer: MiddlewareConsumer): void {
        consumer.apply(middleware).forRoutes({ path: "*", method: RequestMethod.ALL });
      }
    }
    Module({})(SightlineRootModule);
    return {
      module: SightlineRootModule,
      global: true,
      providers: [
        { provide: SIGHTLINE, useValue: sightline },
        { provide: APP_INTERCEPTOR, useValue: new SightlineInterceptor(sightline) },
      ],
      exports: [SIGHTLINE],
    };
  }
}

/** The controller route: Express's matched path or Fastify's route URL, global prefix included. */
function nestRoute(req: NestRequestLike): string | undefined {
  const path = req.route?.path;
  if (typeof path === "string") return toTemplate(path);
  return toTemplate(req.routeOptions?.url);
}

let keeping = false;

/**
 * ValidationPipe answers with messages only ("email must be an email"); the field and the rule
 * are in the class-validator errors it flattens. The SDK keeps those beside the message list
 * (under a symbol, which JSON leaves out, so the answer is unchanged) for the interceptor to read.
 */
function keepValidationErrors(): void {
  if (keeping) return;
  keeping = true;
  const proto = ValidationPipe.prototype as unknown as {
    flattenValidationErrors?: (errors: unknown[]) => unknown;
  };
  const flatten = proto.flattenValidationErrors;
  if (typeof flatten !== "function") return;
  proto.flattenValidationErrors = function (this: unknown, errors: unknown[]) {
    const messages: unknown = flatten.call(this, errors);
    if (Array.isArray(messages)) {
      Object.defineProperty(messages, NEST_VALIDATION, { value: errors, enumerable: false });
    }
    return messages;
  };
}
