// A NestJS app (Express platform) instrumented with SightlineModule: the shared adapter suite.
// Decorators are applied as the functions they are, so the test needs no decorator transform.
import "reflect-metadata";
import { Controller, Get, HttpCode, Module, Param, Post, Req } from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import type { NestExpressApplication } from "@nestjs/platform-express";
import type { Request } from "express";
import { SightlineModule } from "../src/adapters/nestjs.js";
import { setConsumer, type Sightline } from "../src/index.js";
import { adapterSuite, consumerOf, CREATED } from "./support/scenario.js";

/** Applies method and parameter decorators the way TypeScript's legacy decorators would. */
function decorate(
  target: object,
  method: string,
  decorators: MethodDecorator[],
  params: ParameterDecorator[][] = [],
) {
  const descriptor = Object.getOwnPropertyDescriptor(target, method) as PropertyDescriptor;
  params.forEach((list, index) => list.forEach((decorator) => decorator(target, method, index)));
  for (const decorator of decorators.reverse()) decorator(target, method, descriptor);
}

class OrdersController {
  read(req: Request, id: string) {
    setConsumer(req, consumerOf(req.headers["x-customer"]));
    return { id };
  }
  create() {
    return CREATED;
  }
  boom(): never {
    throw new Error("kaboom");
  }
}
decorate(OrdersController.prototype, "read", [Get("orders/:id")], [[Req()], [Param("id")]]);
decorate(OrdersController.prototype, "create", [Post("orders"), HttpCode(201)]);
decorate(OrdersController.prototype, "boom", [Get("boom")]);
Controller()(OrdersController);

class ItemsController {
  item(itemId: string) {
    return { item: itemId };
  }
}
decorate(ItemsController.prototype, "item", [Get("items/:itemId")], [[Param("itemId")]]);
Controller("nested/:tenant")(ItemsController);

async function start(sightline: Sightline) {
  class AppModule {}
  Module({ imports: [SightlineModule.forRoot(sightline)], controllers: [OrdersController, ItemsController] })(
    AppModule,
  );
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger: false });
  await app.listen(0, "127.0.0.1");
  return { url: (await app.getUrl()).replace("[::1]", "127.0.0.1"), close: () => app.close() };
}

adapterSuite("NestJS (Express platform)", { start });
