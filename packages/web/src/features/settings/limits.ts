// The server's resource limits the settings pages show. RESOURCE_LIMITS is a value in
// @sightline/contracts, which the dashboard may only import types from; the type check below
// fails the build when the server's number changes and this one does not.
import type { RESOURCE_LIMITS } from "@sightline/contracts";

export const RESOURCE_LIMITS_LIVE_KEYS = 20 satisfies (typeof RESOURCE_LIMITS)["liveKeysPerProject"];
export const RESOURCE_LIMITS_ENVIRONMENTS = 20 satisfies (typeof RESOURCE_LIMITS)["environmentsPerApp"];
