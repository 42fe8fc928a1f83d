// A real HTTP hop in front of a real Sightline that the failure-mode suites control: forward,
// answer with a status (503/429 + Retry-After, 401), hold batches until released, forward but
// lose the answer, or stop listening altogether. It records every batch attempt it sees.
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Attempt {
  readonly path: string;
  readonly idempotencyKey: string;
  readonly at: number;
  /** What the gate did: "forwarded", "answered 503", "lost answer", ... */
  readonly outcome: string;
}

type Rule =
  | { kind: "forward" }
  | { kind: "answer"; status: number; headers?: Record<string, string>; body?: string }
  | { kind: "hold" }
  | { kind: "lose-answer" };

export class Gate {
  readonly attempts: Attempt[] = [];
  private rules: Rule[] = [];
  private readonly held: (() => void)[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private port = 0;

  constructor(private readonly target: string) {
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async open(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops listening and drops open connections: Sightline is down (connections refused). */
  async shut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next requests get these rules, one each, then everything is forwarded. */
  then(...rules: Rule[]): this {
    this.rules.push(...rules);
    return this;
  }

  /** Held batches wait until this is called. */
  release(): void {
    for (const go of this.held.splice(0)) go();
  }

  heldCount(): number {
    return this.held.length;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    // Heartbeats run on their own timer: they pass through untouched, so the rules and the
    // attempts are about record batches only.
    if ((req.url ?? "").endsWith("/heartbeat")) {
      const answer = await this.forward(req, body).catch(() => ({
        status: 502,
        headers: {},
        body: Buffer.alloc(0),
      }));
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
      return;
    }
    const rule = this.rules.shift() ?? { kind: "forward" };
    const key = String(req.headers["idempotency-key"] ?? "");
    const note = (outcome: string) =>
      this.attempts.push({ path: req.url ?? "", idempotencyKey: key, at: Date.now(), outcome });
    if (rule.kind === "answer") {
      note(`answered ${rule.status}`);
      res.writeHead(rule.status, { "content-type": "application/problem+json", ...rule.headers });
      res.end(rule.body ?? JSON.stringify({ status: rule.status, detail: `gate says ${rule.status}` }));
      return;
    }
    if (rule.kind === "hold") {
      note("held");
      await new Promise<void>((resolve) => this.held.push(resolve));
    }
    const answer = await this.forward(req, body);
    if (rule.kind === "lose-answer") {
      note("lost answer");
      res.socket?.destroy();
      return;
    }
    if (rule.kind === "forward") note(`forwarded ${answer.status}`);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }

  private forward(req: IncomingMessage, body: Buffer) {
    return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>(
      (resolve, reject) => {
        const headers = { ...req.headers, host: new URL(this.target).host };
        const out = request(
          new URL(req.url ?? "/", this.target),
          { method: req.method, headers },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on("data", (chunk: Buffer) => parts.push(chunk));
            answer.on("end", () => {
              const pass: Record<string, string> = {};
              for (const [name, value] of Object.entries(answer.headers)) {
                if (typeof value === "string" && name !== "connection" && name !== "transfer-encoding")
                  pass[name] = value;
              }
              resolve({ status: answer.statusCode ?? 502, headers: pass, body: Buffer.concat(parts) });
            });
          },
        );
        out.on("error", reject);
        out.end(body);
      },
    );
  }
}
