/**
 * `pnpm --filter @sandbank/bench worlds`: the disposable worlds alone (bench/src/worlds.ts), against
 * the API as a production process on an embedded PostgreSQL of its own (BENCH_PG_PORT) or
 * BENCH_DATABASE_URL's server; `pnpm bench` runs the same measurement as part of the full run.
 */
import { APP_ENTRY, freshDatabase, spawnApp, startPostgres, waitFor200 } from './stack.ts';
import { formatWorlds, measureWorlds } from './worlds.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3930);
const baseUrl = `http://127.0.0.1:${PORT}`;

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_worlds_bench');
const api = spawnApp(APP_ENTRY.api, { DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1' });
try {
  await waitFor200(`${baseUrl}/readyz`, performance.now());
  const result = await measureWorlds(baseUrl, {
    forks: Number(process.env.BENCH_WORLD_FORKS ?? 50),
    applies: Number(process.env.BENCH_WORLD_APPLIES ?? 5),
  });
  for (const line of formatWorlds(result)) console.log(line);
  console.log(JSON.stringify(result));
} finally {
  await api.stop();
  await server.stop();
}
