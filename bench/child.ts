// The benches' server child: this script forked with `--server <dataDir>`, spoken to over IPC with
// typed messages; every child answers `{type: "error"}` on failure and exits on `{type: "stop"}`.
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";

/** Linux's USER_HZ: /proc reports CPU times in these ticks. */
const CLOCK_TICKS = 100;

export class BenchChild<ToChild extends { type: string }, FromChild extends { type: string }> {
  readonly #process: ChildProcess;

  constructor(script: string, dataDir: string) {
    this.#process = fork(script, ["--server", dataDir], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
  }

  /** The next message of `type`; an `error` message from the child rejects instead. */
  next<T extends FromChild["type"]>(type: T, timeoutMs: number): Promise<Extract<FromChild, { type: T }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "${type}" from the server within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const onMessage = (message: FromChild | { type: "error"; message: string }) => {
        if (message.type !== "error" && message.type !== type) return;
        clearTimeout(timer);
        this.#process.off("message", onMessage);
        if (message.type === "error" && "message" in message)
          reject(new Error(`server: ${String(message.message)}`));
        else resolve(message as Extract<FromChild, { type: T }>);
      };
      this.#process.on("message", onMessage);
    });
  }

  send(message: ToChild): void {
    this.#process.send(message);
  }

  ask<T extends FromChild["type"]>(message: ToChild, answer: T, timeoutMs = 60_000) {
    const reply = this.next(answer, timeoutMs);
    this.send(message);
    return reply;
  }

  /** The child's process id (for reading its /proc figures). */
  get pid(): number {
    return this.#process.pid ?? 0;
  }

  /** The child's CPU time so far (user + system, all threads), in seconds. */
  cpuSeconds(): number {
    const stat = readFileSync(`/proc/${this.#process.pid}/stat`, "utf8");
    // Fields after the parenthesised command name: state is the first, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  }

  async stop(): Promise<void> {
    if (this.#process.exitCode !== null) return;
    this.#process.send({ type: "stop" });
    const exited = once(this.#process, "exit");
    const timer = setTimeout(() => this.#process.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  }

  kill(): void {
    this.#process.kill("SIGKILL");
  }
}
