/**
 * `pnpm --filter @sandbank/bench fairness`: one tenant's dead receivers against another's deliveries.
 *
 * A noisy user has 20 webhooks on a receiver that accepts connections and never answers (every
 * attempt waits the whole `WEBHOOK_TIMEOUT_MS`, 10 s by default) and books a steady stream; a quiet
 * user with one webhook on a healthy receiver books beside it. Reported: the quiet user's latency
 * from the simulation's response to its delivery's arrival (p50, p95, max), and how many had not
 * arrived `WAIT_SECONDS` after the stream ended (counted as never: the p95 is then "more than").
 *
 * API and one worker (production defaults: concurrency 8) run as separate production processes on an
 * embedded PostgreSQL of their own (BENCH_PG_PORT) or BENCH_DATABASE_URL's server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReceiver } from './receiver.ts';
import { post } from './seed.ts';
import { APP_ENTRY, freshDatabase, spawnApp, startPostgres, waitFor200 } from './stack.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3920);
const SECONDS = Number(process.env.BENCH_FAIRNESS_SECONDS ?? 30);
const DEAD_WEBHOOKS = 20;
const PERIOD_MS = 500;
const WAIT_SECONDS = 30;
const baseUrl = `http://127.0.0.1:${PORT}`;

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_fairness_bench');
const env = { DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1' };
const api = spawnApp(APP_ENTRY.api, env);
const worker = spawnApp(APP_ENTRY.worker, env);
await waitFor200(`${baseUrl}/readyz`, performance.now());

// The dead receiver: takes every request and never answers (until the bench closes it).
const dead = http.createServer(() => {});
await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
const receiver = await startReceiver();

async function seedUser(name: string, hookUrls: string[]) {
  const email = `bench.${name}+${Date.now()}@example.com`;
  const auth = await post<{ accessToken: string }>(baseUrl, '/v1/auth/register', { email, password: 'bench-password-1' });
  const account = await post<{ id: string }>(baseUrl, '/v1/accounts', { name }, auth.accessToken);
  for (const url of hookUrls) {
    const hook = { url, secret: 'bench-webhook-secret-0123456789', events: ['transaction.created'], clientId: 'bench' };
    await post(baseUrl, '/v1/webhooks', hook, auth.accessToken);
  }
  return { token: auth.accessToken, accountId: account.id };
}
const noisy = await seedUser(
  'noisy',
  Array.from({ length: DEAD_WEBHOOKS }, (_, i) => `${deadUrl}/dead/${i}`),
);
const quiet = await seedUser('quiet', [receiver.url]);

async function book(user: { token: string; accountId: string }): Promise<string | undefined> {
  const body = await post<{ transaction: { id: string } }>(
    baseUrl,
    '/v1/simulations/transaction',
    { accountId: user.accountId, amount: 100, description: 'fairness probe' },
    user.token,
  );
  return body.transaction.id;
}

console.log(`streaming for ${SECONDS} s: each user books one simulation every ${PERIOD_MS} ms`);
const answered = new Map<string, number>();
const streamEnd = performance.now() + SECONDS * 1000;
async function stream(user: typeof noisy, record: boolean) {
  while (performance.now() < streamEnd) {
    const next = performance.now() + PERIOD_MS;
    const id = await book(user);
    if (record && id) answered.set(id, performance.now());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
}
await Promise.all([stream(noisy, false), stream(quiet, true)]);
const waitUntil = performance.now() + WAIT_SECONDS * 1000;
while ([...answered.keys()].some((id) => !receiver.arrivals.has(id)) && performance.now() < waitUntil) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

const latencies = [...answered].map(([id, at]) => {
  const arrived = receiver.arrivals.get(id);
  return arrived === undefined ? Number.POSITIVE_INFINITY : Math.max(0, arrived - at);
});
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
const show = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms)} ms` : `> ${WAIT_SECONDS} s after the stream`);
const lost = latencies.filter((ms) => !Number.isFinite(ms)).length;
console.log(
  `quiet user's deliveries: p50 ${show(at(50))}, p95 ${show(at(95))}, max ${show(at(100))} over ${latencies.length} events (${lost} not arrived)`,
);

dead.closeAllConnections();
dead.close();
await Promise.all([api.stop(), worker.stop(), receiver.close()]);
await server.stop();
