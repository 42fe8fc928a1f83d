// How the events tables are laid out on ClickHouse: one node (chDB, a single server, ClickHouse
// Cloud) or a sharded cluster (CLICKHOUSE_CLUSTER). docs/adr/0024-clickhouse-clusters.md.

export type EventsTopology =
  | { readonly kind: "single" }
  | {
      readonly kind: "cluster";
      /** A cluster of the servers' `<remote_servers>`. */
      readonly cluster: string;
      /** "on-cluster": DDL with ON CLUSTER and Replicated* engines (needs Keeper);
       *  "per-node": plain engines, DDL run on the node connected to (each node migrated
       *  separately; no replication). */
      readonly ddl: "on-cluster" | "per-node";
    };

export const SINGLE_NODE: EventsTopology = Object.freeze({ kind: "single" });
