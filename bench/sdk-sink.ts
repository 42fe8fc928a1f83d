// The null sink of `npm run bench:sdk`, in a process of its own (pinned away from the app's
// core by the bench): acknowledges every batch and heartbeat without decoding it, so what the
// app process spends is the SDK's own cost. Prints its URL as one JSON line; stops on SIGTERM.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
