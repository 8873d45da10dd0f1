/**
 * `pnpm --filter @sandbank/bench webhooks`: the webhook pipeline alone, bounded.
 *
 * 1. End-to-end latency: simulation response → the receiver got the delivery, over 300 events
 *    sent as a steady stream by 4 clients (p50/p95).
 * 2. Deliveries per second with one worker: a backlog of BENCH_WEBHOOK_BACKLOG simulations is
 *    committed while the worker is stopped, then one worker (default concurrency) drains it;
 *    the rate is counted from the first delivery to the last, so start-up is not included.
 *
 * API and worker run as separate production processes on an embedded PostgreSQL of their own
 * (BENCH_PG_PORT) or BENCH_DATABASE_URL's server.
 */
import { startReceiver } from './receiver.ts';
import { seedUsers } from './seed.ts';
import { APP_ENTRY, freshDatabase, spawnApp, startPostgres, waitFor200 } from './stack.ts';
import { measureWebhookLatency } from './webhooks.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3910);
const BACKLOG = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 3000);
const CLIENTS = 16;
const baseUrl = `http://127.0.0.1:${PORT}`;

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_webhook_bench');
const env = { DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1' };
const api = spawnApp(APP_ENTRY.api, env);
let worker = spawnApp(APP_ENTRY.worker, env);
await waitFor200(`${baseUrl}/readyz`, performance.now());
const receiver = await startReceiver();
const users = await seedUsers(baseUrl, { users: 8, accountsPerUser: 2, webhookUrl: receiver.url });
const accounts = users.flatMap((user) => user.accountIds.map((accountId) => ({ accountId, token: user.token })));
console.log(`seeded ${accounts.length} accounts`);

const latency = await measureWebhookLatency(baseUrl, accounts, receiver, 300);
console.log(`latency: p50 ${latency.p50} ms, p95 ${latency.p95} ms over ${latency.samples} events (${latency.lost} lost)`);

await worker.stop();
console.log(`worker stopped; committing a backlog of ${BACKLOG} simulations`);
let sent = 0;
let created = 0;
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (sent < BACKLOG) {
      const account = accounts[sent++ % accounts.length];
      const response = await fetch(`${baseUrl}/v1/simulations/transaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account?.token}` },
        body: JSON.stringify({ accountId: account?.accountId, amount: 100, description: 'backlog' }),
      });
      await response.arrayBuffer();
      if (response.status === 201) created += 1;
    }
  }),
);
console.log(`${created} committed; starting one worker`);
const before = receiver.received();
const arrivals: number[] = [];
worker = spawnApp(APP_ENTRY.worker, env);
const deadline = performance.now() + 300_000;
while (receiver.received() - before < created && performance.now() < deadline) {
  if (receiver.received() > before && arrivals.length === 0) arrivals.push(performance.now());
  await new Promise((resolve) => setTimeout(resolve, 5));
}
arrivals.push(performance.now());
const delivered = receiver.received() - before;
const seconds = ((arrivals[1] ?? 0) - (arrivals[0] ?? 0)) / 1000;
console.log(
  `one worker drained ${delivered}/${created} deliveries in ${seconds.toFixed(2)} s: ${Math.round(delivered / seconds)} deliveries/s`,
);

await Promise.all([api.stop(), worker.stop(), receiver.close()]);
await server.stop();
