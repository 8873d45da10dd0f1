/**
 * `pnpm drill:cluster`: a failover drill on a real PostgreSQL cluster. Three nodes, each in its
 * own network namespace with an etcd member and a Patroni member managing PostgreSQL 15 (a
 * primary, a synchronous standby, an asynchronous one), HAProxy routing writes to the primary by
 * Patroni's health check; the API and the worker run against HAProxy's write port, unchanged and
 * never restarted. While clients book and read through the API:
 * - scenario 1 cuts the primary's links to its peers (its WAL stops reaching the replicas), then
 *   1.5 s later crashes it (SIGKILL of PostgreSQL, every backend and Patroni);
 * - scenario 2 cuts the new primary off the network (its interface down).
 * After each it reads the new primary and reports the time to a new primary, what clients saw,
 * acknowledged bookings lost or doubled, balances unequal to their entries, events not delivered
 * to the drill's receiver within two minutes, and reads older than the reader's own write. The
 * JSON report's path is the last line; the exit code is 0 only when every count is 0.
 *
 * `--async-only` breaks it on purpose: asynchronous replication, and Patroni allowed to promote a
 * replica however far behind (maximum_lag_on_failover); the drill then finds lost bookings.
 * `--short` (CI) shortens the load phases. Without network namespaces (no root, a restricted
 * container) it says so and exits 0 with `--skip-unsupported`, 1 otherwise.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '@sandbank/config';
import { withDatabase } from '@sandbank/testing';
import pg from 'pg';
import { Cluster, type ClusterNode, canMakeNamespaces } from './cluster.ts';
import { checkAfterFault, type LedgerVerdict } from './cluster-checks.ts';
import { type ClusterLoad, countersSince, type LoadCounters, startClusterLoad } from './cluster-load.ts';
import { type DrillReceiver, startDrillReceiver } from './drill-receiver.ts';
import { seedUsers } from './seed.ts';
import { APP_ENTRY, freshDatabase, type Proc, root, spawnApp, waitFor200 } from './stack.ts';

const args = new Set(process.argv.slice(2));
const asyncOnly = args.has('--async-only');
const short = args.has('--short');
const PORT = Number(process.env.DRILL_PORT ?? 3911);
const WRITE_PORT = Number(process.env.DRILL_WRITE_PORT ?? 54401);
const READ_PORT = Number(process.env.DRILL_READ_PORT ?? 54402);
const CLIENTS = 12;
/** Load after each failover before the scenario's checks. */
const AFTER_FAULT_MS = short ? 5_000 : 20_000;
/** How long the primary's links to its peers are cut before the crash (the replicas fall behind). */
const LAG_MS = 1_500;
const baseUrl = `http://127.0.0.1:${PORT}`;
const started = performance.now();
const log = (message: string) => console.log(`[cluster-drill ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!canMakeNamespaces()) {
  console.log('cluster drill skipped: this machine does not allow network namespaces (needs root with CAP_NET_ADMIN).');
  process.exit(args.has('--skip-unsupported') ? 0 : 1);
}
execFileSync('bash', [path.join(root, 'scripts/ensure-cluster-tools.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });

interface ScenarioReport extends LedgerVerdict {
  name: string;
  oldPrimary: string;
  newPrimary: string;
  /** From the fault to a new primary answering Patroni's `/primary`. */
  failoverMs: number;
  /** From the fault to the first booking acknowledged through the API. */
  writesResumedMs: number;
  staleReads: number;
  clientErrors: number;
  load: LoadCounters;
}

const cluster = new Cluster({
  writePort: WRITE_PORT,
  readPort: READ_PORT,
  synchronous: !asyncOnly,
  maximumLagOnFailover: asyncOnly ? 1024 ** 3 : 1024 ** 2,
  log,
});
let api: Proc | undefined;
let worker: Proc | undefined;
let receiver: DrillReceiver | undefined;
let load: ClusterLoad | undefined;
let exitCode = 1;
let cleaning: Promise<void> | undefined;
const logsDir = path.join(root, '.data/cluster-drill-logs');
const cleanUp = () => {
  cleaning ??= (async () => {
    await load?.stop();
    await Promise.all([api?.stop(), worker?.stop(), receiver?.close()]);
    await cluster.stop(logsDir);
  })();
  return cleaning;
};
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(code)));
}
// Whatever fails, nothing it started is left behind.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.once(event, (error) => {
    console.error(error);
    console.log(`CLUSTER DRILL FAILED; node logs in ${logsDir}`);
    void cleanUp().finally(() => process.exit(1));
  });
}

/**
 * Runs `check` on a connection to the drill's database through HAProxy's write port; a
 * connection cut while it reads (HAProxy moving to another primary) runs it again.
 */
async function onPrimary<T>(check: (db: pg.Client) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const db = new pg.Client({ connectionString: withDatabase(cluster.writeUrl, 'sandbank_drill') });
    db.on('error', () => {});
    try {
      await db.connect();
      return await check(db);
    } catch (error) {
      if (attempt >= 10) throw error;
      log(`check interrupted (${(error as Error).message}); again`);
      await pause(2000);
    } finally {
      await db.end().catch(() => {});
    }
  }
}

try {
  log(`mode: ${asyncOnly ? 'asynchronous replication only (broken on purpose)' : 'one synchronous standby, one asynchronous'}`);
  await cluster.start();
  log(`haproxy: writes 127.0.0.1:${WRITE_PORT} (Patroni /primary), reads 127.0.0.1:${READ_PORT} (/replica)`);
  const databaseUrl = await freshDatabase({ adminUrl: cluster.writeUrl, stop: async () => {} }, 'sandbank_drill');
  const env = {
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    WORKER_HEARTBEAT_SECONDS: '2',
    WORKER_STALE_AFTER_SECONDS: '6',
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,2,2,3,3,5,5,5,5',
    WEBHOOK_TIMEOUT_MS: '2000',
    WORKER_CONCURRENCY: '8',
    WORKER_USER_CONCURRENCY: '4',
  };
  // Their logs go beside the nodes' (kept in .data/cluster-drill-logs).
  fs.mkdirSync(logsDir, { recursive: true });
  const appLog = (name: string) => fs.openSync(path.join(logsDir, `${name}.log`), 'w');
  api = spawnApp(APP_ENTRY.api, env, SERVER_NODE_FLAGS.api, appLog('api'));
  worker = spawnApp(APP_ENTRY.worker, env, SERVER_NODE_FLAGS.worker, appLog('worker'));
  await waitFor200(`${baseUrl}/readyz`, performance.now());
  console.log(`api: ${baseUrl}`);
  receiver = await startDrillReceiver({ delayMs: 5, slowMs: 100 });
  const users = await seedUsers(baseUrl, { users: 3, accountsPerUser: 4, webhookUrl: receiver.url });
  const accounts = users.flatMap((user) => user.accountIds.map((accountId) => ({ accountId, token: user.token })));
  log(`seeded ${accounts.length} accounts; ${CLIENTS} clients book and read through the API`);
  load = startClusterLoad(baseUrl, accounts, CLIENTS);
  await pause(short ? 3_000 : 8_000);

  const scenarios: ScenarioReport[] = [];
  const lostSoFar = new Set<string>();
  const runScenario = async (
    name: string,
    fault: (primary: ClusterNode) => Promise<void>,
    recover: (node: ClusterNode) => void,
  ) => {
    const running = load as ClusterLoad;
    const oldPrimary = await cluster.leader();
    if (!oldPrimary) throw new Error('no primary before the fault');
    const before = running.counters();
    log(`${name}: primary is ${oldPrimary}; ${before.acknowledged} bookings acknowledged so far`);
    const node = cluster.node(oldPrimary);
    await fault(node);
    const faultAt = performance.now();
    let newPrimary: string | null = null;
    const failoverMs = await cluster.waitFor(
      async () => {
        newPrimary = await cluster.leader(oldPrimary);
        return newPrimary !== null;
      },
      60_000,
      'a new primary',
    );
    log(`${name}: ${newPrimary} is primary after ${(failoverMs / 1000).toFixed(1)} s`);
    await cluster.waitFor(async () => running.lastAcknowledgedAt() > faultAt, 60_000, 'a booking after the fault');
    const writesResumedMs = running.lastAcknowledgedAt() - faultAt;
    log(`${name}: bookings acknowledged again ${(writesResumedMs / 1000).toFixed(1)} s after the fault`);
    await pause(AFTER_FAULT_MS);
    recover(node);
    const window = countersSince(before, running.counters());
    const verdict = await onPrimary((db) =>
      checkAfterFault(db, running.acknowledged, receiver as DrillReceiver, faultAt, log, lostSoFar),
    );
    const clientErrors = Object.values(window.clientErrors).reduce((sum, count) => sum + count, 0);
    const report: ScenarioReport = {
      name,
      oldPrimary,
      newPrimary: newPrimary ?? '',
      failoverMs: Math.round(failoverMs),
      writesResumedMs: Math.round(writesResumedMs),
      ...verdict,
      staleReads: window.staleReads,
      clientErrors,
      load: window,
    };
    log(`${name}: ${JSON.stringify(report)}`);
    scenarios.push(report);
    // The old primary rejoins (rewound if it must be) before the next fault.
    await cluster.waitForReplicas(2, 90_000);
    log(`${name}: ${JSON.stringify(await cluster.members())}`);
  };

  await runScenario(
    'kill-primary',
    async (primary) => {
      cluster.setPeersReachable(primary, false);
      log(`kill-primary: ${primary.name}'s links to its peers are cut; for ${LAG_MS} ms its WAL reaches no replica`);
      await pause(LAG_MS);
      const killed = cluster.killDatabase(primary);
      log(`kill-primary: SIGKILL ${killed} processes of ${primary.name} (PostgreSQL, its backends, Patroni)`);
    },
    // Its links come back only after the failover, as with a machine that died: the kernel would
    // otherwise still send what the killed primary's sockets had queued.
    (node) => {
      cluster.setPeersReachable(node, true);
      cluster.startPatroni(node);
    },
  );
  await runScenario(
    'cut-primary-off',
    async (primary) => {
      cluster.setLink(primary, false);
      log(`cut-primary-off: ${primary.name}'s interface is down`);
    },
    (node) => cluster.setLink(node, true),
  );

  await load.stop();
  const total = load.counters();
  const apiAlive = api.child.exitCode === null && api.child.signalCode === null;
  const workerAlive = worker.child.exitCode === null && worker.child.signalCode === null;
  const counted = ['lost', 'doubled', 'wrongBalances', 'undelivered', 'staleReads', 'clientErrors'] as const;
  const ok =
    apiAlive &&
    workerAlive &&
    scenarios.length === 2 &&
    scenarios.every((scenario) => scenario.failoverMs <= 30_000 && counted.every((key) => scenario[key] === 0));
  const report = {
    date: new Date().toISOString(),
    mode: asyncOnly ? 'async-only' : 'synchronous',
    short,
    ok,
    apiAlive,
    workerAlive,
    topology: {
      nodes: cluster.nodes.map((node) => ({ name: node.name, namespace: node.namespace, ip: node.ip })),
      synchronousMode: !asyncOnly,
      haproxy: { write: WRITE_PORT, read: READ_PORT },
    },
    scenarios,
    load: total,
    durationMs: Math.round(performance.now() - started),
  };
  const resultsDir = path.join(root, 'bench/results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(
    resultsDir,
    `${report.date.slice(0, 10)}-cluster-drill${asyncOnly ? '-async-only' : ''}${short ? '-short' : ''}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(ok ? 'CLUSTER DRILL PASSED: nothing lost' : 'CLUSTER DRILL FAILED');
  console.log(file);
  exitCode = ok ? 0 : 1;
} catch (error) {
  console.error(error);
  console.log(`CLUSTER DRILL FAILED; node logs in ${logsDir}`);
} finally {
  await cleanUp();
}
process.exit(exitCode);
