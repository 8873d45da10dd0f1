/**
 * `pnpm --filter @sandbank/bench payments`: the payments' two figures of `pnpm bench` alone (issue 42):
 * own-account transfers in turns with their write floor (transfers.ts), then one advance clearing a
 * session of 10,000 payments beside as many plain bookings (clearing.ts). Sandbank runs as in
 * production, its worker relaying every event. BENCH_TURNS (3), BENCH_SECONDS (10),
 * BENCH_CLEARING_PAYMENTS (10,000; 0 skips it), BENCH_CONVERTED (0: no converted bookings in the turns),
 * BENCH_RESULTS_NAME (the results file, default `<date>-payments`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { measureClearing } from './clearing.ts';
import { postgresPids } from './cpu.ts';
import { seedFloorShape } from './floor.ts';
import { APP_ENTRY, freshDatabase, root, spawnApp, startPostgres, waitFor200 } from './stack.ts';
import { compareTransfersWithFloor } from './transfers.ts';

const CONNECTIONS = Number(process.env.BENCH_CLIENTS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TURNS = Number(process.env.BENCH_TURNS ?? 3);
const CLEARING = Number(process.env.BENCH_CLEARING_PAYMENTS ?? 10_000);
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const baseUrl = `http://127.0.0.1:${PORT}`;

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, process.env.BENCH_DATABASE_NAME ?? 'sandbank_payments');
const env = {
  DATABASE_URL: databaseUrl,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  LIMIT_OPEN_ACCOUNTS: '100000',
  LIMIT_DUE_ITEMS_PER_REQUEST: String(Math.max(1_000, 2 * CLEARING)),
};
// BENCH_API_NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`) goes to the API alone.
const api = spawnApp(APP_ENTRY.api, {
  ...env,
  ...(process.env.BENCH_API_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_API_NODE_OPTIONS } : {}),
});
const worker = process.env.BENCH_NO_WORKER ? undefined : spawnApp(APP_ENTRY.worker, env);
const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, clients: CONNECTIONS };
try {
  await waitFor200(`${baseUrl}/readyz`, performance.now());
  const pgPort = Number(new URL(databaseUrl).port || 5432);
  if (TURNS > 0) {
    const target = await seedFloorShape(baseUrl, Number(process.env.BENCH_TRANSFER_ACCOUNTS ?? 1000));
    const transfers = await compareTransfersWithFloor(baseUrl, target, {
      databaseUrl,
      floorPort: PORT + 8,
      connections: CONNECTIONS,
      seconds: SECONDS,
      turns: TURNS,
      pids: { api: api.child.pid, worker: worker?.child.pid },
      groups: { postgres: () => postgresPids(pgPort) },
      converted: process.env.BENCH_CONVERTED !== '0',
    });
    const { turns, ...summary } = transfers;
    console.log(JSON.stringify({ transfers: { ...summary, turnRatios: turns.map((t) => t.ratio) } }));
    results.transfers = transfers;
  }
  if (CLEARING > 0) {
    results.clearing = await measureClearing(baseUrl, { count: CLEARING, connections: CONNECTIONS });
    console.log(JSON.stringify({ clearing: results.clearing }));
  }
  const name = process.env.BENCH_RESULTS_NAME ?? `${String(results.date).slice(0, 10)}-payments`;
  const file = path.join(root, 'bench/results', `${name}.json`);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written ${path.relative(root, file)}`);
} finally {
  await Promise.all([api.stop(), worker?.stop()]);
  await server.stop();
}
