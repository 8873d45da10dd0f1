/**
 * `pnpm --filter @sandbank/bench reads`: the two read hot paths alone — the first page of an
 * account's history and the pull endpoint's default 90-day window, on 100,000 transactions, at
 * 32 connections. API_NODE_OPTIONS=--cpu-prof profiles the API (see profile-summary.ts).
 */
import { load } from './load.ts';
import { createApiKey, seedHistory, seedUsers } from './seed.ts';
import { APP_ENTRY, freshDatabase, spawnApp, startPostgres, waitFor200 } from './stack.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3900);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const baseUrl = `http://127.0.0.1:${PORT}`;

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_reads');
const api = spawnApp(APP_ENTRY.api, {
  DATABASE_URL: databaseUrl,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  ...(process.env.API_NODE_OPTIONS ? { NODE_OPTIONS: process.env.API_NODE_OPTIONS } : {}),
});
await waitFor200(`${baseUrl}/readyz`, performance.now());
const [user] = await seedUsers(baseUrl, { users: 1, accountsPerUser: 1, webhookUrl: null });
if (!user?.accountIds[0]) throw new Error('seeding failed');
await seedHistory(databaseUrl, user.accountIds[0], 100_000);
const apiKey = await createApiKey(baseUrl, user.token);
const run = (url: string, authorization: string) =>
  load({ url, connections: 32, durationSeconds: SECONDS, headers: { authorization } });
await run(`${baseUrl}/v1/accounts/${user.accountIds[0]}/transactions`, `Bearer ${user.token}`); // warm-up
const history = await run(`${baseUrl}/v1/accounts/${user.accountIds[0]}/transactions`, `Bearer ${user.token}`);
const pull = await run(`${baseUrl}/api/owner/${encodeURIComponent(user.email)}/transactions`, `Bearer ${apiKey}`);
console.log(JSON.stringify({ history, pull }));
await api.stop();
await server.stop();
