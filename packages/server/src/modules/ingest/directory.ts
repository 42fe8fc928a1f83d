// What ingest needs from the resource model, as one interface: who a key belongs to, which
// apps a project has, and registering discovered environments and endpoints. The resources
// module implements it (cached; revocation and deletion invalidate at once); ingest depends
// on this interface only.

/** The project (and, for an app key, the one app) an API key may write to. */
export interface KeyPrincipal {
  readonly keyId: string;
  readonly project: {
    readonly id: string;
    readonly slug: string;
    /** Days the project keeps each kind (null or absent: the server's days; docs/adr/0023). */
    readonly retention?: Readonly<Partial<Record<"requests" | "logs" | "spans" | "rollups", number | null>>>;
  };
  /** Set for app-scoped keys: records may only name this app. */
  readonly app: { readonly id: string; readonly slug: string } | null;
}

export interface AppRef {
  readonly id: string;
  readonly slug: string;
}

export interface DiscoveredEndpoint {
  readonly method: string;
  /** The route template, e.g. `/users/{id}`. */
  readonly path: string;
  /** ISO 8601 UTC of the newest record seen for it. */
  readonly seenAt: string;
}

export interface IngestDirectory {
  /** The key's principal, or null when the key is unknown, revoked, or its project/app is gone. */
  authenticateKey(rawKey: string): Promise<KeyPrincipal | null>;
  /** Live apps of a project, to resolve a record's `app_id` (UUID or slug). */
  listLiveApps(projectId: string): Promise<readonly AppRef[]>;
  /** Creates missing environments of an app; known names cost no metadata write. */
  ensureEnvironments(appId: string, names: readonly string[]): Promise<void>;
  /** Creates missing endpoints and keeps `last_seen_at` fresh; batched and cached. */
  ensureEndpoints(appId: string, endpoints: readonly DiscoveredEndpoint[]): Promise<void>;
}
