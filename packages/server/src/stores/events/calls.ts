// A driver's in-flight calls: lets close() wait for them to settle and refuses calls after it.
import { EventsStoreError } from "./executor.js";

export class CallTracker {
  readonly #pending = new Set<Promise<void>>();
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** Runs `call` unless the executor is closing; a closed store answers 503, not a crash. */
  run<T>(call: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new EventsStoreError("Events store is closed", "unavailable"));
    const result = call();
    const settled = result.then(ignore, ignore);
    this.#pending.add(settled);
    void settled.then(() => this.#pending.delete(settled));
    return result;
  }

  /** Stops accepting calls and resolves once every accepted call has settled. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}

function ignore(): void {}
