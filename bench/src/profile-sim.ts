/**
 * `pnpm --filter @sandbank/bench profile`: drives the simulation hot path against an API started
 * with `--cpu-prof`, so the costs per request can be read from the profile (written to
 * PROFILE_DIR, default /tmp/sandbank-profile; open it in Chrome DevTools or summarise it with
 * `node src/profile-summary.ts <file>`).
 */
import { load } from './load.ts';
import { seedUsers } from './seed.ts';
import { freshDatabase, spawnApp, startPostgres, waitFor200 } from './stack.ts';

const PORT = 3920;
const baseUrl = `http://127.0.0.1:${PORT}`;
const profileDir = process.env.PROFILE_DIR ?? '/tmp/sandbank-profile';

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_profile');
const api = spawnApp('apps/api/src/main.ts', {
  DATABASE_URL: databaseUrl,
  PORT: String(PORT),
  NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir} ${process.env.API_NODE_OPTIONS ?? ''}`,
});
await waitFor200(`${baseUrl}/readyz`, performance.now());
// No webhook receiver: the worker is not running, so only the API's own work is profiled.
const users = await seedUsers(baseUrl, { users: 8, accountsPerUser: 8, webhookUrl: null });
const accounts = users.flatMap((user) => user.accountIds.map((accountId) => ({ accountId, token: user.token })));
let n = 0;
const result = await load({
  url: `${baseUrl}/v1/simulations/transaction`,
  method: 'POST',
  connections: 32,
  durationSeconds: Number(process.env.BENCH_SECONDS ?? 15),
  headers: { 'content-type': 'application/json' },
  request: () => {
    n += 1;
    const account = accounts[n % accounts.length];
    return {
      body: JSON.stringify({ accountId: account?.accountId, amount: n % 4 === 0 ? -500 : 1250 }),
      headers: { authorization: `Bearer ${account?.token}` },
    };
  },
});
console.log({ ...result, apiPeakRssMiB: api.peakRssMiB(), profileDir });
await api.stop();
await server.stop();
