/**
 * `pnpm --filter @sandbank/bench floor`: the same-work floor and Sandbank in turns, in one sitting
 * (see floor.ts). Sandbank runs as in production: NODE_ENV=production, per-IP limits on (lifted
 * high enough for the load), its worker relaying every event. Prints each turn, with CPU µs per
 * request of the API, the worker and PostgreSQL beside the floor's server and PostgreSQL, and each turn
 * again with converted bookings (card payments in EUR on the PLN accounts) beside the same floor run.
 */
import { postgresPids } from './cpu.ts';
import { compareWithFloor, seedFloorShape } from './floor.ts';
import { APP_ENTRY, freshDatabase, spawnApp, startPostgres, waitFor200 } from './stack.ts';

const CONNECTIONS = Number(process.env.BENCH_CLIENTS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const TURNS = Number(process.env.BENCH_TURNS ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const POSTGRES_PORT = Number(process.env.BENCH_PG_PORT ?? 54359);
const baseUrl = `http://127.0.0.1:${PORT}`;

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_floor');
const env = {
  DATABASE_URL: databaseUrl,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_IP: '100000000/60',
  LIMIT_OPEN_ACCOUNTS: '100000',
};
const api = spawnApp(APP_ENTRY.api, env);
const worker = process.env.BENCH_NO_WORKER ? undefined : spawnApp(APP_ENTRY.worker, env);
await waitFor200(`${baseUrl}/readyz`, performance.now());
const target = await seedFloorShape(baseUrl);
const comparison = await compareWithFloor(baseUrl, target, {
  connections: CONNECTIONS,
  seconds: SECONDS,
  turns: TURNS,
  pids: { api: api.child.pid, worker: worker?.child.pid },
  groups: { postgres: () => postgresPids(POSTGRES_PORT) },
  converted: true,
  // The converting floor (write-floor.ts) on Sandbank's database, with the converted load (issue 41).
  convertingFloor: { databaseUrl, port: Number(process.env.BENCH_FLOOR_PORT ?? 3901) },
});
for (const [index, turn] of comparison.turns.entries()) {
  console.log(
    JSON.stringify({
      turn: index + 1,
      floor: turn.floor,
      sandbank: { rps: turn.sandbank.requestsPerSecond, p50: turn.sandbank.p50, p99: turn.sandbank.p99 },
      cpuMicrosPerRequest: turn.sandbank.cpuMicrosPerRequest,
      ...(turn.converted
        ? {
            converted: { rps: turn.converted.requestsPerSecond, p99: turn.converted.p99 },
            convertedCpuMicrosPerRequest: turn.converted.cpuMicrosPerRequest,
          }
        : {}),
    }),
  );
}
const { turns: _turns, ...summary } = comparison;
console.log({ ...summary, apiPeakRssMiB: api.peakRssMiB(), workerPeakRssMiB: worker?.peakRssMiB() });
await Promise.all([api.stop(), worker?.stop()]);
await server.stop();
