// Query defaults: retry only what may succeed on retry (no answer, 5xx, 503 with back-off),
// never a 4xx; data is refetched when the window regains focus, never silently replaced by zeros.
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { isApiError } from "./api-client";
import { keys } from "./queries";

export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (!isApiError(error)) return false;
  const transient = error.status === 0 || error.status >= 500;
  return transient && failureCount < 3;
}

export function retryDelay(attempt: number, error: unknown): number {
  const hinted = isApiError(error) ? error.retryAfterSeconds : undefined;
  if (hinted !== undefined) return Math.min(hinted, 30) * 1000;
  return Math.min(1000 * 2 ** attempt, 8000);
}

export function createQueryClient(): QueryClient {
  // A 403 or 404 may mean the caller's role changed or they were removed: read the roles again,
  // so the controls on screen follow at once instead of after the context goes stale.
  const refreshAccess = (error: unknown) => {
    if (isApiError(error) && (error.status === 403 || error.status === 404))
      void client.invalidateQueries({ queryKey: keys.userContext });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: refreshAccess }),
    mutationCache: new MutationCache({ onError: refreshAccess }),
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, staleTime: 10_000, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
  return client;
}
