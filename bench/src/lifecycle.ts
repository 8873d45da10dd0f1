/**
 * The mixed lifecycle load (issue 13): clients that each loop through what a card network does to
 * a bank — create a pending card payment, then post it (with a tip, half the time) or void it, then
 * read the account's balances — for a fixed time. Reports requests/s over all of those calls and
 * the latency percentiles, like the autocannon scenarios.
 */
import type { LoadResult } from './load.ts';
import type { SeedUser } from './seed.ts';

export async function measureLifecycleLoad(
  baseUrl: string,
  users: readonly SeedUser[],
  { connections, durationSeconds }: { connections: number; durationSeconds: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const deadline = performance.now() + durationSeconds * 1000;
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const started = performance.now();
    try {
      const response = await fetch(baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await response.json()) as { data?: { transaction?: { id: string } } };
      latencies.push(performance.now() - started);
      if (response.status >= 300) non2xx += 1;
      return json;
    } catch {
      errors += 1;
      return {};
    }
  };
  const client = async (index: number) => {
    const user = users[index % users.length];
    if (!user) return;
    for (let round = 0; performance.now() < deadline; round++) {
      const accountId = user.accountIds[(index + round) % user.accountIds.length] ?? '';
      const pending = await call('POST', '/v1/simulations/transaction', user.token, {
        accountId,
        amount: -1_000,
        status: 'pending',
        merchant: 'Bench',
      });
      const id = pending.data?.transaction?.id;
      if (id) {
        if (round % 3 === 2) await call('POST', `/v1/transactions/${id}/void`, user.token, {});
        else await call('POST', `/v1/transactions/${id}/post`, user.token, round % 2 ? { amount: -1_150 } : {});
      }
      await call('GET', `/v1/accounts/${accountId}`, user.token);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, (_, index) => client(index)));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    requestsPerSecond: Math.round(latencies.length / seconds),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    non2xx,
    errors,
    total: latencies.length,
  };
}
