// Health: asks each store to answer a trivial query within a short deadline.
import type { Health } from "@sightline/contracts";
import { SERVER_VERSION } from "../../version.js";

export interface Pingable {
  ping(timeoutMs?: number): Promise<void>;
}

export interface HealthService {
  check(): Promise<Health>;
}

const PING_TIMEOUT_MS = 2000;

export function createHealthService(stores: { metadata: Pingable; events: Pingable }): HealthService {
  const probe = (store: Pingable) =>
    store.ping(PING_TIMEOUT_MS).then(
      () => "ok" as const,
      () => "unavailable" as const,
    );
  return {
    async check() {
      const [metadata, events] = await Promise.all([probe(stores.metadata), probe(stores.events)]);
      const healthy = metadata === "ok" && events === "ok";
      return {
        status: healthy ? "healthy" : "unhealthy",
        service: "sightline",
        version: SERVER_VERSION,
        checks: { metadata, events },
      };
    },
  };
}
