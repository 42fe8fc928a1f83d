// The abort signal of the HTTP request being served, carried through async calls so a store
// driver can cancel its work when the client goes away, without services passing it along.
import { AsyncLocalStorage } from "node:async_hooks";

const storage = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` (and everything it starts) as part of a request cancelled by `signal`. */
export function runWithRequestSignal<T>(signal: AbortSignal, work: () => T): T {
  return storage.run(signal, work);
}

/** The signal of the request this call is serving; undefined outside one (jobs, alerts, ingest). */
export function currentRequestSignal(): AbortSignal | undefined {
  return storage.getStore();
}
