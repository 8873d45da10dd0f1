/**
 * `pnpm --filter @sandbank/bench eb-paging`: the Enable Banking face's transaction paging beside the
 * native history's pages alone (enablebanking-paging.ts; `pnpm bench` runs the same measurement after
 * the history). One API process (the production bundle, rate limits off), no worker. Prints one JSON
 * line and writes `bench/results/<date>-eb-paging.json`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { measureEnableBankingPaging } from './enablebanking-paging.ts';
import { APP_ENTRY, freshDatabase, root, spawnApp, startPostgres, waitFor200 } from './stack.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3900);
const baseUrl = `http://127.0.0.1:${PORT}`;

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_eb_paging');
const api = spawnApp(APP_ENTRY.api, { DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1' });
try {
  await waitFor200(`${baseUrl}/readyz`, performance.now());
  const measured = await measureEnableBankingPaging(baseUrl, databaseUrl, {
    connections: Number(process.env.BENCH_CLIENTS ?? 32),
    seconds: Number(process.env.BENCH_EB_SECONDS ?? 300),
  });
  const result = { date: new Date().toISOString(), ...measured };
  console.log(JSON.stringify(result));
  const file = path.join(root, 'bench/results', `${result.date.slice(0, 10)}-eb-paging.json`);
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await api.stop();
  await server.stop();
}
