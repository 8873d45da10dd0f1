/**
 * `pnpm bench`: starts Sandbank (production mode, separate API and worker processes), seeds it,
 * drives it with autocannon from this process, measures webhook delivery and cold start, runs
 * pgbench on the same server as the hardware baseline, prints a table and writes
 * bench/results/<date>.json. See bench/README.md for the method.
 */
import fs from 'node:fs';
import path from 'node:path';
import { heapBetween, readApiHeap } from './api-metrics.ts';
import { measureClearing } from './clearing.ts';
import { measureClock } from './clock.ts';
import { cpuMeter, postgresPids } from './cpu.ts';
import { measureEnableBankingPaging } from './enablebanking-paging.ts';
import { compareWithFloor, seedFloorShape } from './floor.ts';
import { measureLifecycleLoad } from './lifecycle.ts';
import { type LoadResult, load, simulationStream } from './load.ts';
import { runPgbench } from './pgbench.ts';
import { startReceiver } from './receiver.ts';
import { measureScaleOut, printScale, runScaleBench } from './scale.ts';
import { waitForSettledDeliveries } from './scale-checks.ts';
import { createApiKey, seedHistory, seedUsers } from './seed.ts';
import { APP_ENTRY, freshDatabase, READ_FLOOR_ENTRY, root, spawnApp, startPostgres, waitFor200 } from './stack.ts';
import { measureStatements } from './statement-bench.ts';
import { measureSync } from './sync.ts';
import { compareTransfersWithFloor } from './transfers.ts';
import { measureColdStart, measureWebhookLatency } from './webhooks.ts';
import { formatWorlds, measureWorlds } from './worlds.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const baseUrl = `http://127.0.0.1:${PORT}`;

// `pnpm bench --scale`: only the scale-out part (bench/src/scale.ts), to results/<date>-scale.json.
if (process.argv.includes('--scale')) {
  await runScaleBench();
  process.exit(0);
}

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_bench');
// The floor comparison opens 1,000 accounts for one user (the floor's own shape); the clearing
// advance fires 20,000 payment steps in one call.
const CLEARING_PAYMENTS = Number(process.env.BENCH_CLEARING_PAYMENTS ?? 10_000);
const env = {
  DATABASE_URL: databaseUrl,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  LIMIT_OPEN_ACCOUNTS: '100000',
  LIMIT_DUE_ITEMS_PER_REQUEST: String(Math.max(1_000, 2 * CLEARING_PAYMENTS)),
};
const coldStart = await measureColdStart(env, baseUrl);

const api = spawnApp(APP_ENTRY.api, env);
const worker = spawnApp(APP_ENTRY.worker, env);
await waitFor200(`${baseUrl}/readyz`, performance.now());
const receiver = await startReceiver();
const users = await seedUsers(baseUrl, { users: 8, accountsPerUser: 8, webhookUrl: receiver.url });
const accounts = users.flatMap((user) => user.accountIds.map((accountId) => ({ accountId, token: user.token })));
console.log(`seeded ${users.length} users, ${accounts.length} accounts`);

// 1. Simulations: random account, mostly credits, some debits; every one enqueues a delivery.
const deliveredBefore = receiver.received();
const loadStarted = performance.now();
const simulations = await load({
  url: `${baseUrl}/v1/simulations/transaction`,
  method: 'POST',
  connections: CLIENTS,
  durationSeconds: SECONDS,
  headers: { 'content-type': 'application/json' },
  request: simulationStream(accounts),
});
const expected = simulations.total - simulations.non2xx - simulations.errors;
const drainDeadline = performance.now() + 120_000;
while (receiver.received() - deliveredBefore < expected && performance.now() < drainDeadline) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const deliveredSeconds = (performance.now() - loadStarted) / 1000;
const deliveriesPerSecond = Math.round((receiver.received() - deliveredBefore) / deliveredSeconds);
const webhookLatency = await measureWebhookLatency(baseUrl, accounts, receiver);

// 1a. The same-work floor (../shared/bench-floor) and Sandbank in turns, with the floor's load shape
// (one user, 1,000 accounts, ±100); Sandbank's worker relays every event meanwhile.
const floorTarget = await seedFloorShape(baseUrl);
const floor = await compareWithFloor(baseUrl, floorTarget, {
  connections: CLIENTS,
  seconds: Number(process.env.BENCH_FLOOR_SECONDS ?? 12),
  turns: Number(process.env.BENCH_FLOOR_TURNS ?? 2),
  pids: { api: api.child.pid, worker: worker.child.pid },
  groups: { postgres: () => postgresPids(new URL(databaseUrl).port ? Number(new URL(databaseUrl).port) : 5432) },
  converted: true,
});

// 1a'. Own-account transfers (POST /v1/payments between two of those accounts) in turns with the write
// floor (write-floor.ts, the same rows and events in one hand-written statement) — issue 42.
const transfers = await compareTransfersWithFloor(baseUrl, floorTarget, {
  databaseUrl,
  floorPort: PORT + 8,
  connections: CLIENTS,
  seconds: Number(process.env.BENCH_FLOOR_SECONDS ?? 12),
  turns: Number(process.env.BENCH_TRANSFER_TURNS ?? 3),
  pids: { api: api.child.pid, worker: worker.child.pid },
  groups: { postgres: () => postgresPids(new URL(databaseUrl).port ? Number(new URL(databaseUrl).port) : 5432) },
});

// Peak RSS so far: start-up and the 32-connection simulation loads (what issue 16's targets are
// about); the reads, the sync of 100k rows and the scenario applies below come on top.
const simulationRss = { apiPeakMiB: api.peakRssMiB(), workerPeakMiB: worker.peakRssMiB() };

// 1b. The mixed lifecycle load: create pending, post (some with a tip) or void, read the account.
const lifecycle = await measureLifecycleLoad(baseUrl, users, { connections: CLIENTS, durationSeconds: 10 });

// 2. History: one account with 100,000 transactions.
const historyUser = users[0];
const historyAccount = historyUser?.accountIds[0] ?? '';
await seedHistory(databaseUrl, historyAccount, 100_000);
const auth = { authorization: `Bearer ${historyUser?.token}` };
/**
 * The reads are measured alone: first the worker finishes what the loads before left it (events to
 * relay, deliveries), then 3 s of the same requests warm the server and the cache, as `reads` does.
 * Returns how long the worker still had work, which the results keep.
 */
async function quietAndWarm(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  await waitForSettledDeliveries(databaseUrl, 120_000);
  const waitedMs = Math.round(performance.now() - started);
  await load({ url, connections: CLIENTS, durationSeconds: 3, headers });
  return waitedMs;
}
const workerBusyBeforeReadsMs: Record<string, number> = {};
workerBusyBeforeReadsMs.history = await quietAndWarm(`${baseUrl}/v1/accounts/${historyAccount}/transactions`, auth);
// The same page from the read floor (a hand-written node:http + pg server, same statement and body),
// on its own port, in turns with Sandbank: the reference the history's figures are a ratio to.
const {
  sandbank: historyFirst,
  floor: historyFloor,
  turns: historyTurns,
} = await historyBesideReadFloor(Number(process.env.BENCH_READ_TURNS ?? 2));
const historyDeep = await load({
  url: `${baseUrl}/v1/accounts/${historyAccount}/transactions?page=100`,
  connections: CLIENTS,
  durationSeconds: 10,
  headers: auth,
});

// 2a. The Enable Banking face's transaction paging (continuation_key through a year of history) beside
// the native history's pages of the same account, in turns, 32 clients (enablebanking-paging.ts).
const enablebankingPaging = await measureEnableBankingPaging(baseUrl, databaseUrl, {
  connections: CLIENTS,
  seconds: Number(process.env.BENCH_EB_SECONDS ?? 300),
});

// 3. Sync from nothing: the same owner's 100k+ transactions through /v1/transactions/sync.
const sync = await measureSync(baseUrl, historyUser?.token ?? '');

// 4. The clock: the family scenario (12 months × 3 accounts) and a one-year advance.
const clock = await measureClock(baseUrl);

// 4a. One advance clearing an Elixir session of 10,000 payments, beside as many plain bookings (clearing.ts).
const clearing =
  CLEARING_PAYMENTS > 0 ? await measureClearing(baseUrl, { count: CLEARING_PAYMENTS, connections: CLIENTS }) : null;

// 4b. Disposable worlds: forks of a family snapshot beside applying the same scenario; 20 at once; removal.
const worlds = await measureWorlds(baseUrl);

// 5. Pull endpoint with an API key.
const apiKey = await createApiKey(baseUrl, historyUser?.token ?? '');
const pullUrl = `${baseUrl}/api/owner/${encodeURIComponent(historyUser?.email ?? '')}/transactions`;
// The clock's scenarios and advances leave the worker thousands of events to relay.
workerBusyBeforeReadsMs.pull = await quietAndWarm(pullUrl, { authorization: `Bearer ${apiKey}` });
const pull = await load({
  url: pullUrl,
  connections: CLIENTS,
  durationSeconds: 10,
  headers: { authorization: `Bearer ${apiKey}` },
});

/**
 * The history's first page from Sandbank and from the read floor, in turns (Sandbank, floor, …),
 * 10 s each, so background work that comes and goes (autovacuum after the loads) falls on both.
 * Medians of the turns, and Sandbank's throughput and p99 as ratios to the floor's.
 */
async function historyBesideReadFloor(turnCount: number) {
  const floorPort = PORT + 7;
  const floorServer = spawnApp(READ_FLOOR_ENTRY, { DATABASE_URL: databaseUrl, PORT: String(floorPort), HOST: '127.0.0.1' });
  try {
    await waitFor200(`http://127.0.0.1:${floorPort}/readyz`, performance.now());
    const floorUrl = `http://127.0.0.1:${floorPort}/v1/accounts/${historyAccount}/transactions`;
    await load({ url: floorUrl, connections: CLIENTS, durationSeconds: 3, headers: auth }); // warm, as Sandbank was
    const pgPort = Number(new URL(databaseUrl).port || 5432);
    /** One 10 s run with the CPU µs per page of the server, PostgreSQL and this process (autocannon). */
    const measured = async (url: string, pid: number | undefined) => {
      const meter = cpuMeter({ server: pid, bench: process.pid }, { postgres: () => postgresPids(pgPort) });
      const result = await load({ url, connections: CLIENTS, durationSeconds: 10, headers: auth });
      const cpu = meter.stop();
      const perPage = (seconds: number | undefined) => Math.round(((seconds ?? 0) * 1e6) / Math.max(result.total, 1));
      const cpuMicrosPerPage = { server: perPage(cpu.server), postgres: perPage(cpu.postgres), bench: perPage(cpu.bench) };
      return { ...result, cpuMicrosPerPage };
    };
    const turns: { sandbank: LoadResult; floor: LoadResult }[] = [];
    for (let turn = 0; turn < turnCount; turn++) {
      const heapBefore = await readApiHeap(baseUrl);
      const page = await measured(`${baseUrl}/v1/accounts/${historyAccount}/transactions`, api.child.pid);
      const sandbank = { ...page, apiHeap: heapBetween(heapBefore, await readApiHeap(baseUrl)) };
      const floor = await measured(floorUrl, floorServer.child.pid);
      turns.push({ sandbank, floor });
    }
    const sandbank = medianOf(turns.map((turn) => turn.sandbank));
    const floor = medianOf(turns.map((turn) => turn.floor));
    return {
      sandbank,
      floor: {
        ...floor,
        ratio: Number((sandbank.requestsPerSecond / Math.max(floor.requestsPerSecond, 1)).toFixed(2)),
        p99Ratio: Number((sandbank.p99 / Math.max(floor.p99, 1)).toFixed(2)),
      },
      turns,
    };
  } finally {
    await floorServer.stop();
  }
}

/** Each figure the median of the runs' (the upper one of two, as the same-work floor's turns). */
function medianOf(results: LoadResult[]): LoadResult {
  const median = (pick: (result: LoadResult) => number) =>
    results.map(pick).sort((a, b) => a - b)[Math.floor(results.length / 2)] ?? 0;
  return {
    requestsPerSecond: median((r) => r.requestsPerSecond),
    p50: median((r) => r.p50),
    p95: median((r) => r.p95),
    p99: median((r) => r.p99),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    total: results.reduce((sum, r) => sum + r.total, 0),
  };
}

const rss = { apiPeakMiB: api.peakRssMiB(), workerPeakMiB: worker.peakRssMiB(), underSimulationLoad: simulationRss };
await Promise.all([api.stop(), worker.stop(), receiver.close()]);

// Baseline: pgbench TPC-B on the same server, same clients.
const pgbenchUrl = await freshDatabase(server, 'pgbench_bench', false);
const pgbenchTps = runPgbench(pgbenchUrl, CLIENTS, SECONDS);
const scale = await measureScaleOut({ server, port: PORT, clients: CLIENTS, seconds: 10, rounds: 2 });
// A year's camt.053 of 10,000 transactions, streamed, against the JSON pull of the same rows (issue 31).
const statements = await measureStatements(server);
await server.stop();

const results = {
  date: new Date().toISOString(),
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
  clients: CLIENTS,
  seconds: SECONDS,
  simulations,
  floor,
  transfers,
  pgbenchTps,
  ratioToPgbench: Number((simulations.requestsPerSecond / pgbenchTps).toFixed(2)),
  lifecycle,
  historyFirstPage: historyFirst,
  historyFloor,
  historyTurns,
  historyPage100: historyDeep,
  enablebankingPaging: {
    ...enablebankingPaging,
    // The same figures as ratios to the history's first page measured above, in the same sitting.
    p99RatioToHistoryFirstPage: Number((enablebankingPaging.enablebanking.p99 / Math.max(historyFirst.p99, 1)).toFixed(2)),
    throughputRatioToHistoryFirstPage: Number(
      (enablebankingPaging.enablebanking.requestsPerSecond / Math.max(historyFirst.requestsPerSecond, 1)).toFixed(2),
    ),
  },
  workerBusyBeforeReadsMs,
  pull,
  sync,
  clock,
  clearing,
  worlds,
  webhooks: { deliveriesPerSecond, ...webhookLatency },
  coldStart,
  rss,
  scale,
  statements,
};
printTable(results);
printScale(results.scale);
const file = path.join(root, 'bench/results', `${results.date.slice(0, 10)}.json`);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`written ${path.relative(root, file)}`);

function printTable(r: typeof results): void {
  const row = (name: string, l: LoadResult) =>
    `| ${name} | ${l.requestsPerSecond} | ${l.p50} | ${l.p95} | ${l.p99} | ${l.non2xx + l.errors} |`;
  console.log(
    [
      `\n${r.clients} clients, ${r.seconds} s, ${r.machine.cpus} cores, Node ${r.machine.node}\n`,
      '| scenario | req/s | p50 ms | p95 ms | p99 ms | non-2xx |',
      '|---|---|---|---|---|---|',
      row('POST /v1/simulations/transaction', r.simulations),
      row('lifecycle mix: pending → post/void → read', r.lifecycle),
      row('GET history, first page (100k rows)', r.historyFirstPage),
      row('GET history, first page — read floor', r.historyFloor),
      row('GET history, page 100', r.historyPage100),
      row('GET /api/owner/:owner/transactions', r.pull),
      '',
      `pgbench TPC-B: ${r.pgbenchTps} TPS → simulations ÷ pgbench = ${r.ratioToPgbench}`,
      r.floor.ratio !== null
        ? `same-work floor (median of ${r.floor.turns.length} turns): floor ${r.floor.floorRequestsPerSecond} req/s p99 ${r.floor.floorP99} ms, Sandbank ${r.floor.sandbankRequestsPerSecond} req/s p99 ${r.floor.sandbankP99} ms → ${r.floor.ratio} of the floor, p99 ${r.floor.p99Ratio}× (floor's pgbench ${r.floor.floorPgbenchTps} TPS)`
        : 'same-work floor: skipped (../shared/bench-floor not installed)',
      `own-account transfers ÷ the write floor (median of ${r.transfers.turns.length} turns' ratios ${r.transfers.turns.map((t) => t.ratio).join(', ')}): ${r.transfers.ratio}, p99 ${r.transfers.p99Ratio}× (Sandbank ${r.transfers.sandbankRequestsPerSecond} req/s, floor ${r.transfers.floorRequestsPerSecond}); plain bookings ÷ the same floor's booking ${r.transfers.bookingRatio}`,
      r.clearing
        ? `clearing: one advance settles ${r.clearing.payments} Elixir payments (${r.clearing.fired.payments} steps) in ${r.clearing.advanceMs} ms = ${r.clearing.advanceMsPerPayment} ms a payment; ${r.clearing.payments} bookings ${r.clearing.bookingsMs} ms = ${r.clearing.bookingMsPerBooking} ms each (${r.clearing.clearingPerPaymentOverBooking}×)`
        : 'clearing: skipped (BENCH_CLEARING_PAYMENTS=0)',
      `history's first page ÷ the read floor (hand-written node:http + pg, same statement and body): ${r.historyFloor.ratio} of its req/s, p99 ${r.historyFloor.p99Ratio}× its ${r.historyFloor.p99} ms`,
      `Enable Banking paging (${r.enablebankingPaging.history} transactions over a year, ${r.enablebankingPaging.pagesPerPass} pages of 100, continuation_key): ${r.enablebankingPaging.enablebanking.requestsPerSecond} req/s, p99 ${r.enablebankingPaging.enablebanking.p99} ms; native pages of the same account ${r.enablebankingPaging.native.requestsPerSecond} req/s, p99 ${r.enablebankingPaging.native.p99} ms → p99 ${r.enablebankingPaging.p99Ratio}×, req/s ${r.enablebankingPaging.throughputRatio}× (to the history's first page: p99 ${r.enablebankingPaging.p99RatioToHistoryFirstPage}×, req/s ${r.enablebankingPaging.throughputRatioToHistoryFirstPage}×)`,
      `sync from nothing: ${r.sync.transactions} transactions in ${r.sync.pages} pages, ${r.sync.seconds} s → ${r.sync.transactionsPerSecond} transactions/s (one client, 200 per page)`,
      `scenario apply (family, 12 months × 3 accounts): ${r.clock.scenarioApply.transactions} transactions in ${r.clock.scenarioApply.medianMs} ms (median of ${r.clock.scenarioApply.runsMs.join(', ')}; target < 5000 ms)`,
      ...formatWorlds(r.worlds),
      `one-year advance, 10 schedules + 100 pending settlements: ${r.clock.yearAdvance.fired} items in ${r.clock.yearAdvance.medianMs} ms (median of ${r.clock.yearAdvance.runsMs.join(', ')})`,
      `webhooks: ${r.webhooks.deliveriesPerSecond} deliveries/s (1 worker); end-to-end p50 ${r.webhooks.p50} ms, p95 ${r.webhooks.p95} ms over ${r.webhooks.samples} events`,
      `cold start: /healthz ${r.coldStart.healthzMs} ms, /readyz ${r.coldStart.readyzMs} ms (median of ${r.coldStart.runs})`,
      `peak RSS under the simulation loads: API ${r.rss.underSimulationLoad.apiPeakMiB} MiB, worker ${r.rss.underSimulationLoad.workerPeakMiB} MiB; over the whole run: API ${r.rss.apiPeakMiB} MiB, worker ${r.rss.workerPeakMiB} MiB`,
    ].join('\n'),
  );
}
