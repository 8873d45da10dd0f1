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
import { type DrillLoad, startDrillLoad } from './drill-load.ts';
import { type DrillReceiver, startDrillReceiver } from './drill-receiver.ts';
import { seedUsers } from './seed.ts';
import { APP_ENTRY, freshDatabase, type Proc, root, spawnApp, waitFor200 } from './stack.ts';

const PORT = Number(process.env.DRILL_PORT ?? 3901);
const PG_PORT = Number(process.env.DRILL_PG_PORT ?? 54369);
const CLIENTS = 16;
const baseUrl = `http://127.0.0.1:${PORT}`;
const log = (message: string) => console.log(`[drill ${(performance.now() / 1000).toFixed(1)}s] ${message}`);

const pgOptions = { dataDir: path.join(root, '.data/drill'), port: PG_PORT, database: 'postgres' };
let postgres = await startEmbeddedPostgres(pgOptions);
const env = {
  PORT: String(PORT),
  HOST: '127.0.0.1',
  WORKER_HEARTBEAT_SECONDS: '2',
  WORKER_STALE_AFTER_SECONDS: '6',
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,2,2,3,3,5,5,5,5',
  WEBHOOK_TIMEOUT_MS: '2000',
  WORKER_CONCURRENCY: '16',
  // The drill's 4 users share the 16 slots; fairness between them is not what it tests.
  WORKER_USER_CONCURRENCY: '4',
};
let databaseUrl = '';
/** Every answer takes 150 ms, every 20th 1.5 s: the worker's 16 deliveries at a time drain ~74/s. */
const RECEIVER = { delayMs: 150, slowMs: 1500 };
const RECEIVER_PACE_PER_SECOND = Number(env.WORKER_CONCURRENCY) / ((19 * RECEIVER.delayMs + RECEIVER.slowMs) / 20 / 1000);
const start = (entry: string) => spawnApp(entry, { ...env, DATABASE_URL: databaseUrl });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (proc: Proc) => proc.child.exitCode === null && proc.child.signalCode === null;
let api: Proc | undefined;
let worker: Proc | undefined;
let receiver: DrillReceiver | undefined;
let load: DrillLoad | undefined;
let exitCode = 1;
try {
  databaseUrl = await freshDatabase({ adminUrl: postgres.url, stop: postgres.stop }, 'sandbank_drill');
  api = start(APP_ENTRY.api);
  worker = start(APP_ENTRY.worker);
  await waitFor200(`${baseUrl}/readyz`, performance.now());
  receiver = await startDrillReceiver(RECEIVER);
  const users = await seedUsers(baseUrl, { users: 4, accountsPerUser: 4, webhookUrl: receiver.url });
  const accounts = users.flatMap((user) => user.accountIds.map((accountId) => ({ accountId, token: user.token })));
  log(`seeded ${accounts.length} accounts; starting ${CLIENTS} clients`);
  load = startDrillLoad(baseUrl, accounts, CLIENTS);
  const { acknowledged } = load;

  /** Simulations acknowledged in the 3 s after each step: the load must make progress after every fault. */
  const progress: Record<string, number> = {};
  const phase = async (name: string) => {
    const before = acknowledged.size;
    await pause(3000);
    progress[name] = acknowledged.size - before;
    log(`${progress[name]} simulations acknowledged in the 3 s after: ${name}`);
  };

  await phase('start');
  log('SIGKILL api');
  api.child.kill('SIGKILL');
  await pause(1000);
  api = start(APP_ENTRY.api);
  await waitFor200(`${baseUrl}/healthz`, performance.now());
  log('api restarted');
  await phase('api restart');

  // Kill the worker while deliveries are in flight (the receiver is slow, so there are some).
  while (receiver.inFlight() === 0) await pause(10);
  log(`SIGKILL worker (${receiver.inFlight()} deliveries in flight)`);
  worker.child.kill('SIGKILL');
  await pause(1000);
  worker = start(APP_ENTRY.worker);
  log('worker restarted');
  await phase('worker restart');

  log('restarting PostgreSQL');
  await postgres.stop();
  await pause(1000);
  postgres = await startEmbeddedPostgres(pgOptions);
  log('PostgreSQL restarted');
  await phase('PostgreSQL restart');

  await load.stop();
  const { attempts, failures } = load.stats();
  log(`load stopped: ${acknowledged.size} acknowledged simulations, ${attempts} attempts, ${failures} network failures`);
  const ledger = await withClient(databaseUrl, (db) =>
    checkLedger(db, acknowledged, receiver as DrillReceiver, log, RECEIVER_PACE_PER_SECOND),
  );
  // Both processes must have lived through the PostgreSQL restart (and everything since).
  const survived = { apiAlive: alive(api), workerAlive: alive(worker) };
  const stalled = Object.entries(progress)
    .filter(([, count]) => count === 0)
    .map(([name]) => name);
  const ok = ledger.ok && survived.apiAlive && survived.workerAlive && stalled.length === 0;
  console.log(JSON.stringify({ ...ledger, ok, ...survived, progress, stalled }, null, 2));
  console.log(ok ? 'DRILL PASSED: nothing lost' : 'DRILL FAILED');
  exitCode = ok ? 0 : 1;
} finally {
  // Leave nothing running, whatever happened above.
  await load?.stop();
  await Promise.all([api?.stop(), worker?.stop(), receiver?.close()]);
  await postgres.stop();
}
process.exit(exitCode);
