/**
 * `pnpm --filter @sandbank/bench floor`: the same-work floor and Sandbank in turns, in one sitting
 * (see floor.ts). Sandbank runs as in production: NODE_ENV=production, per-IP limits on (lifted
 * high enough for the load), its worker relaying every event. Prints each turn and the ratios.
 */
import { cpuMeter, postgresPids } from './cpu.ts';
import { floorAvailable, floorShapedLoad, runFloor, seedFloorShape } from './floor.ts';
import { freshDatabase, spawnApp, startPostgres, waitFor200 } from './stack.ts';

const CONNECTIONS = Number(process.env.BENCH_CLIENTS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const TURNS = Number(process.env.BENCH_TURNS ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const baseUrl = `http://127.0.0.1:${PORT}`;
const POSTGRES_PORT = Number(process.env.BENCH_PG_PORT ?? 54359);

export const PRODUCTION_LIKE_ENV = {
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_IP: '100000000/60',
  LIMIT_OPEN_ACCOUNTS: '100000',
};

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_floor');
const env = { DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1', ...PRODUCTION_LIKE_ENV };
const api = spawnApp('apps/api/src/main.ts', env);
const worker = process.env.BENCH_NO_WORKER ? undefined : spawnApp('apps/worker/src/main.ts', env);
await waitFor200(`${baseUrl}/readyz`, performance.now());
const target = await seedFloorShape(baseUrl);
const pids = { api: api.child.pid, worker: worker?.child.pid };
await floorShapedLoad(baseUrl, target, { connections: CONNECTIONS, seconds: 6 }); // warm-up
const withFloor = floorAvailable();
for (let turn = 1; turn <= TURNS; turn++) {
  const floor = withFloor ? await runFloor({ connections: CONNECTIONS, seconds: SECONDS }) : undefined;

  const sandbank = await floorShapedLoad(baseUrl, target, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    pids,
    groups: { postgres: () => postgresPids(POSTGRES_PORT) },
  });

  console.log(
    JSON.stringify({
      turn,
      floor,
      sandbank: { rps: sandbank.requestsPerSecond, p50: sandbank.p50, p99: sandbank.p99, bad: sandbank.non2xx + sandbank.errors },
      cpuMicrosPerRequest: sandbank.cpuMicrosPerRequest,
      ratio: floor ? Number((sandbank.requestsPerSecond / floor.requestsPerSecond).toFixed(2)) : null,
      p99Ratio: floor ? Number((sandbank.p99 / floor.p99).toFixed(2)) : null,
    }),
  );
}
console.log({ apiPeakRssMiB: api.peakRssMiB(), workerPeakRssMiB: worker?.peakRssMiB() });
await Promise.all([api.stop(), worker?.stop()]);
await server.stop();
