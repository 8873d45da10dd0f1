/**
 * The console's one QueryClient, made once in main.tsx, outside the auth provider (which clears
 * its cache on sign-in and sign-out but never replaces it).
 */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2_000, retry: false, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}
