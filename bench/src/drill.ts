/**
 * `pnpm drill`: a reliability drill. While simulations run from many clients, it kills the API
 * (SIGKILL) and restarts it, kills the worker mid-delivery and restarts it, and restarts
 * PostgreSQL. Then it checks: every simulation that got a 2xx is in the ledger exactly once,
 * every balance equals the sum of its transactions (and is never negative), every transaction
 * has exactly one event, and every event reached its webhook at least once with its id as the
 * idempotency key. Prints a verdict with counts; exits non-zero on any loss.
 */
import path from 'node:path';
import { startEmbeddedPostgres } from '@sandbank/db';
import { withClient } from '@sandbank/testing';
import { checkLedger } from './drill-checks.ts';
import { startDrillReceiver } from './drill-receiver.ts';
import { seedUsers } from './seed.ts';
import { freshDatabase, type Proc, root, spawnApp, waitFor200 } from './stack.ts';

const PORT = Number(process.env.DRILL_PORT ?? 3901);
const PG_PORT = Number(process.env.DRILL_PG_PORT ?? 54369);
const CLIENTS = 16;
const baseUrl = `http://127.0.0.1:${PORT}`;
const log = (message: string) => console.log(`[drill ${(performance.now() / 1000).toFixed(1)}s] ${message}`);

const pgOptions = { dataDir: path.join(root, '.data/drill'), port: PG_PORT, database: 'postgres' };
let postgres = await startEmbeddedPostgres(pgOptions);
const databaseUrl = await freshDatabase({ adminUrl: postgres.url, stop: postgres.stop }, 'sandbank_drill');
const env = {
  DATABASE_URL: databaseUrl,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  WORKER_HEARTBEAT_SECONDS: '2',
  WORKER_STALE_AFTER_SECONDS: '6',
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,2,2,3,3,5,5,5,5',
  WEBHOOK_TIMEOUT_MS: '2000',
};
const start = (entry: string) => spawnApp(entry, env);
let api: Proc = start('apps/api/src/main.ts');
let worker: Proc = start('apps/worker/src/main.ts');
await waitFor200(`${baseUrl}/readyz`, performance.now());
const receiver = await startDrillReceiver({ delayMs: 150 });
const users = await seedUsers(baseUrl, { users: 4, accountsPerUser: 4, webhookUrl: receiver.url });
const accounts = users.flatMap((user) => user.accountIds.map((accountId) => ({ accountId, token: user.token })));
log(`seeded ${accounts.length} accounts; starting ${CLIENTS} clients`);

/** externalTxnId → the transaction id its 2xx answered with. */
const acknowledged = new Map<string, string>();
let attempts = 0;
let failures = 0;
let running = true;

async function client(index: number): Promise<void> {
  let n = 0;
  while (running) {
    const account = accounts[(index + n) % accounts.length];
    const externalTxnId = `drill-${index}-${n++}`;
    const amount = n % 3 === 0 ? -700 : 1000;
    // Retry the same externalTxnId until it is answered: idempotency makes this safe.
    for (let tries = 0; tries < 50 && running; tries++) {
      attempts += 1;
      try {
        const response = await fetch(`${baseUrl}/v1/simulations/transaction`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${account?.token}` },
          body: JSON.stringify({ accountId: account?.accountId, amount, externalTxnId, description: 'drill' }),
          signal: AbortSignal.timeout(5000),
        });
        const body = (await response.json()) as { data?: { transaction?: { id: string } } };
        if (response.ok && body.data?.transaction) acknowledged.set(externalTxnId, body.data.transaction.id);
        if (response.ok || response.status === 422) break;
      } catch {
        failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

await pause(3000);
log('SIGKILL api');
api.child.kill('SIGKILL');
await pause(1000);
api = start('apps/api/src/main.ts');
await waitFor200(`${baseUrl}/healthz`, performance.now());
log('api restarted');

await pause(3000);
log(`SIGKILL worker (${receiver.inFlight()} deliveries in flight)`);
worker.child.kill('SIGKILL');
await pause(1000);
worker = start('apps/worker/src/main.ts');
log('worker restarted');

await pause(3000);
log('restarting PostgreSQL');
await postgres.stop();
await pause(1000);
postgres = await startEmbeddedPostgres(pgOptions);
log('PostgreSQL restarted');

await pause(4000);
running = false;
await Promise.all(clients);
log(`load stopped: ${acknowledged.size} acknowledged simulations, ${attempts} attempts, ${failures} network failures`);

const verdict = await withClient(databaseUrl, (db) => checkLedger(db, acknowledged, receiver, log));
await Promise.all([api.stop(), worker.stop(), receiver.close()]);
await postgres.stop();
console.log(JSON.stringify(verdict, null, 2));
console.log(verdict.ok ? 'DRILL PASSED: nothing lost' : 'DRILL FAILED');
process.exit(verdict.ok ? 0 : 1);
