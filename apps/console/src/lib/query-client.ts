/**
 * The console's one QueryClient, made once in main.tsx, outside the auth provider (which clears
 * its cache on sign-in and sign-out but never replaces it).
 *
 * `networkMode: 'always'`: a call made offline fails at once as NETWORK (shown with a retry and
 * the offline banner) instead of pausing. TanStack's default ('online') pauses a mutation while
 * the browser is offline and sends it when the network returns: a booking the user may have
 * given up on would then be made without their knowing. Queries still refetch on reconnect.
 *
 * Invalidation is derived from the mutation, not listed by hand in each component: every tRPC
 * mutation's key names its router area (`[['transactions', 'voidTransaction']]`), and `AFFECTS`
 * says which areas' queries a change there can alter. A component's own `onSuccess` only resets
 * its form.
 */
import { MutationCache, QueryClient } from '@tanstack/react-query';

/** Everything inside a user's world: money, its history, payments, what is due, the log and the clock. */
const WORLD = ['accounts', 'transactions', 'payments', 'schedules', 'events', 'clock'];

/** The areas whose queries a successful mutation in an area may change (default: its own area). */
export const AFFECTS: Readonly<Record<string, readonly string[]>> = {
  auth: [],
  accounts: ['accounts', 'events'],
  transactions: ['accounts', 'transactions', 'events'],
  // A simulated rejection or return changes a payment as well as its transactions.
  simulations: ['accounts', 'transactions', 'payments', 'events'],
  payments: ['payments', 'accounts', 'transactions', 'events'],
  schedules: ['schedules', 'accounts', 'transactions', 'events'],
  clock: WORLD,
  scenarios: WORLD,
  sandbox: WORLD,
  webhooks: ['webhooks'],
  integrations: ['integrations'],
  simplefin: ['integrations', 'simplefin'],
  // A restore replaces the whole world; forks and removals change only the worlds listed (one rule for the area).
  worlds: ['worlds', ...WORLD],
  plaid: ['plaid'],
};

/** The router area of a tRPC mutation key, e.g. `[['webhooks', 'redeliver']]` → `webhooks`. */
export function areaOf(mutationKey: readonly unknown[] | undefined): string | undefined {
  const path = mutationKey?.[0];
  return Array.isArray(path) && typeof path[0] === 'string' ? path[0] : undefined;
}

export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _context, mutation) => {
        const area = areaOf(mutation.options.mutationKey);
        if (!area) return;
        for (const affected of AFFECTS[area] ?? [area]) {
          void queryClient.invalidateQueries({ queryKey: [[affected]] });
        }
      },
    }),
    defaultOptions: {
      queries: { staleTime: 2_000, retry: false, refetchOnWindowFocus: true, refetchOnReconnect: true, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  return queryClient;
}
