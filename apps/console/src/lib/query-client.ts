/**
 * The console's one QueryClient, made once in main.tsx, outside the auth provider (which clears
 * its cache on sign-in and sign-out but never replaces it).
 *
 * `networkMode: 'always'`: a call made offline fails at once as NETWORK (shown with a retry and
 * the offline banner) instead of pausing. TanStack's default ('online') pauses a mutation while
 * the browser is offline and sends it when the network returns: a booking the user may have
 * given up on would then be made without their knowing. Queries still refetch on reconnect.
 */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2_000, retry: false, refetchOnWindowFocus: true, refetchOnReconnect: true, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
