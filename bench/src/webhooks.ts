/** Cold start and webhook end-to-end latency. */
import type { Receiver } from './receiver.ts';
import { APP_ENTRY, spawnApp, waitFor200 } from './stack.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** Process start → first 200 on /healthz and on /readyz, database already initialised. */
export async function measureColdStart(env: Record<string, string>, baseUrl: string, runs = 3) {
  const healthz: number[] = [];
  const readyz: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const api = spawnApp(APP_ENTRY.api, env);
    healthz.push(await waitFor200(`${baseUrl}/healthz`, started));
    readyz.push(await waitFor200(`${baseUrl}/readyz`, started));
    await api.stop();
  }
  return { healthzMs: Math.round(median(healthz)), readyzMs: Math.round(median(readyz)), runs };
}

/**
 * Simulation response → the receiver got its delivery, for `samples` events sent by a few
 * concurrent clients (a steady stream, not a burst that measures queueing).
 */
export async function measureWebhookLatency(
  baseUrl: string,
  accounts: { accountId: string; token: string }[],
  receiver: Receiver,
  samples = 300,
) {
  const answered = new Map<string, number>();
  let next = 0;
  const client = async () => {
    while (next < samples) {
      const i = next++;
      const account = accounts[i % accounts.length];
      const response = await fetch(`${baseUrl}/v1/simulations/transaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account?.token}` },
        body: JSON.stringify({ accountId: account?.accountId, amount: 100, description: 'latency probe' }),
      });
      const body = (await response.json()) as { data?: { transaction?: { id: string } } };
      const id = body.data?.transaction?.id;
      if (id) answered.set(id, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await Promise.all([client(), client(), client(), client()]);
  const deadline = performance.now() + 60_000;
  while ([...answered.keys()].some((id) => !receiver.arrivals.has(id)) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const latencies = [...answered].flatMap(([id, at]) => {
    const arrived = receiver.arrivals.get(id);
    return arrived === undefined ? [] : [Math.max(0, arrived - at)];
  });
  return {
    samples: latencies.length,
    lost: answered.size - latencies.length,
    p50: Math.round(percentile(latencies, 50)),
    p95: Math.round(percentile(latencies, 95)),
  };
}
