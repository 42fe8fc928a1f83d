// Query defaults: retry only what may succeed on retry (no answer, 5xx, 503 with back-off),
// never a 4xx; data is refetched when the window regains focus, never silently replaced by zeros.
import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "./api-client";

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
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, staleTime: 10_000, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}
