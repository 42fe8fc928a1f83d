// Fastify 4 and 5 apps instrumented with the SDK's plugin: the shared adapter suite, with the
// nested route registered under a prefix that has a parameter.
import fastify5 from "fastify";
import fastify4 from "fastify4";
import { sightlinePlugin } from "../src/adapters/fastify.js";
import { setConsumer, type Sightline } from "../src/index.js";
import { adapterSuite, consumerOf, CREATED } from "./support/scenario.js";

type Factory = typeof fastify5;

async function start(factory: Factory, sightline: Sightline) {
  const app = factory();
  await app.register(sightlinePlugin(sightline));
  app.addHook("preHandler", async (request) => {
    setConsumer(request, consumerOf(request.headers["x-customer"]));
  });
  app.get<{ Params: { id: string } }>("/orders/:id", async (request) => ({ id: request.params.id }));
  app.post("/orders", async (_request, reply) => reply.code(201).send(CREATED));
  app.get("/boom", async () => {
    throw new Error("kaboom");
  });
  await app.register(
    async (scope) => {
      scope.get<{ Params: { itemId: string } }>("/items/:itemId", async (request) => ({
        item: request.params.itemId,
      }));
    },
    { prefix: "/nested/:tenant" },
  );
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  return { url, close: () => app.close() };
}

for (const [name, factory] of [
  ["Fastify 5", fastify5],
  ["Fastify 4", fastify4 as unknown as Factory],
] as const) {
  adapterSuite(name, { start: (sightline) => start(factory, sightline) });
}
