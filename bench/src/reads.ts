/**
 * `pnpm --filter @sandbank/bench reads`: the two read hot paths alone — the first page of an
 * account's history and the pull endpoint's default 90-day window, on 100,000 transactions, at
 * 32 connections — with the CPU each request costs the API, PostgreSQL and the load generator;
 * then one client syncs the whole owner from nothing (transactions/s).
 *
 * - By default the current bundle and the read floor (`read-floor.ts`, history only) in turns.
 * - BENCH_READS_VARIANTS=`before:/path/to/old/dist/main.js,after:apps/api/dist/main.js` compares
 *   API builds on the same database, in turns (BENCH_ROUNDS rounds): a ratio from one sitting. A
 *   third field sets the Node flags instead of `pnpm start`'s (`semi16:apps/api/dist/main.js:--max-semi-space-size=16`).
 * - BENCH_READS_QUERY=`?limit=1` prices the rows apart from the request.
 * - API_NODE_OPTIONS=--cpu-prof profiles the API (see profile-summary.ts); BENCH_READS_HISTORY_ONLY=1
 *   leaves out the pull and the sync, so the profile is the history's alone.
 * - BENCH_READS_PRELOAD_SECONDS=N first drives N seconds of the simulation load (another user's
 *   8 accounts) at each API started, so the reads meet a heap that has served writes, as in
 *   `pnpm bench` (the read floor is left as it is); BENCH_READS_PRELOAD_HISTORY=1 books them on the
 *   history's account instead.
 * - BENCH_READS_WRITES_PER_SECOND=N books N simulations a second (one client; 0 = as fast as it
 *   can) on the history's account while the history is measured, so its first page keeps
 *   changing: what the transaction list cache costs when its answers go stale (not for the floor,
 *   which cannot book).
 */
import path from 'node:path';
import { heapBetween, readApiHeap } from './api-metrics.ts';
import { cpuMeter, postgresPids } from './cpu.ts';
import { load } from './load.ts';
import { createApiKey, seedHistory, seedUsers } from './seed.ts';
import { APP_ENTRY, freshDatabase, type Proc, READ_FLOOR_ENTRY, root, spawnApp, startPostgres, waitFor200 } from './stack.ts';
import { measureSync } from './sync.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3900);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const QUERY = process.env.BENCH_READS_QUERY ?? '';
const WRITES_PER_SECOND = process.env.BENCH_READS_WRITES_PER_SECOND;
const HISTORY_ONLY = process.env.BENCH_READS_HISTORY_ONLY === '1';
const PRELOAD_SECONDS = Number(process.env.BENCH_READS_PRELOAD_SECONDS ?? 0);
const VARIANTS = (process.env.BENCH_READS_VARIANTS ?? `current:${APP_ENTRY.api},floor:${READ_FLOOR_ENTRY}`)
  .split(',')
  .map((spec) => {
    const [name = '', entry = '', flags] = spec.split(':');
    return { name, entry: path.resolve(root, entry), flags: flags?.split(' ') };
  });
const baseUrl = `http://127.0.0.1:${PORT}`;
const READ_FLOOR = path.resolve(root, READ_FLOOR_ENTRY);

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_reads');
const pgPort = Number(new URL(databaseUrl).port);

async function startApi(entry: string, flags?: string[], variant = ''): Promise<Proc> {
  const api = spawnApp(
    entry,
    {
      BENCH_VARIANT: variant,
      DATABASE_URL: databaseUrl,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      ...(process.env.API_NODE_OPTIONS ? { NODE_OPTIONS: process.env.API_NODE_OPTIONS } : {}),
    },
    flags,
  );
  await waitFor200(`${baseUrl}/readyz`, performance.now());
  return api;
}

let api = await startApi(APP_ENTRY.api);
const [user] = await seedUsers(baseUrl, { users: 1, accountsPerUser: 1, webhookUrl: null });
if (!user?.accountIds[0]) throw new Error('seeding failed');
await seedHistory(databaseUrl, user.accountIds[0], 100_000);
const apiKey = await createApiKey(baseUrl, user.token);
const [writer] = PRELOAD_SECONDS > 0 ? await seedUsers(baseUrl, { users: 1, accountsPerUser: 8, webhookUrl: null }) : [];
await api.stop();

/**
 * The simulation load of `pnpm bench` (3 credits to 1 debit) over the writer's accounts, or with
 * BENCH_READS_PRELOAD_HISTORY=1 on the history's own account (its first page then holds them).
 */
const preloadTarget =
  process.env.BENCH_READS_PRELOAD_HISTORY === '1' ? { token: user.token, accountIds: [user.accountIds[0]] } : writer;
async function preload(): Promise<void> {
  if (!preloadTarget || PRELOAD_SECONDS <= 0) return;
  const { token, accountIds } = preloadTarget;
  let n = 0;
  await load({
    url: `${baseUrl}/v1/simulations/transaction`,
    method: 'POST',
    connections: 32,
    durationSeconds: PRELOAD_SECONDS,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    request: () => {
      n += 1;
      const accountId = accountIds[n % accountIds.length];
      return { body: JSON.stringify({ accountId, amount: n % 4 === 0 ? -500 : 1250, description: 'preload' }) };
    },
  });
}

/**
 * Books simulations on the history's account, one at a time, `perSecond` a second (0: back to back),
 * until the returned stop is called; the stop resolves to how many were booked.
 */
function bookWhileReading(perSecond: number): () => Promise<number> {
  let stopped = false;
  let booked = 0;
  const writing = (async () => {
    while (!stopped) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}/v1/simulations/transaction`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user?.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ accountId: user?.accountIds[0], amount: 1250, description: 'written while read' }),
      });
      if (res.status !== 201) throw new Error(`booking while reading: ${res.status} ${await res.text()}`);
      booked += 1;
      const wait = perSecond > 0 ? 1000 / perSecond - (performance.now() - started) : 0;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return async () => {
    stopped = true;
    await writing;
    return booked;
  };
}

/** One autocannon run, with CPU µs per request of the API, PostgreSQL and this process (autocannon). */
async function run(url: string, authorization: string, writesPerSecond?: number) {
  const meter = cpuMeter({ api: api.child.pid, bench: process.pid }, { postgres: () => postgresPids(pgPort) });
  const stopWriting = writesPerSecond === undefined ? null : bookWhileReading(writesPerSecond);
  const result = await load({ url, connections: 32, durationSeconds: SECONDS, headers: { authorization } });
  const booked = stopWriting ? await stopWriting() : undefined;
  const cpu = meter.stop();
  const perRequest = (seconds: number) => Math.round((seconds * 1e6) / Math.max(result.total, 1));
  return {
    ...result,
    ...(booked === undefined ? {} : { bookedWhileReading: booked }),
    cpuMicrosPerRequest: {
      api: perRequest(cpu.api ?? 0),
      postgres: perRequest(cpu.postgres ?? 0),
      bench: perRequest(cpu.bench ?? 0),
      machine: perRequest(cpu.machine),
    },
  };
}

const historyUrl = `${baseUrl}/v1/accounts/${user.accountIds[0]}/transactions${QUERY}`;
const pullUrl = `${baseUrl}/api/owner/${encodeURIComponent(user.email)}/transactions${QUERY}`;
for (let round = 1; round <= ROUNDS; round++) {
  for (const variant of VARIANTS) {
    api = await startApi(variant.entry, variant.flags, variant.name);
    if (variant.entry !== READ_FLOOR) await preload();
    await load({ url: historyUrl, connections: 32, durationSeconds: 3, headers: { authorization: `Bearer ${user.token}` } });
    const heapBefore = variant.entry === READ_FLOOR ? null : await readApiHeap(baseUrl);
    const history = {
      ...(await run(
        historyUrl,
        `Bearer ${user.token}`,
        WRITES_PER_SECOND === undefined || variant.entry === READ_FLOOR ? undefined : Number(WRITES_PER_SECOND),
      )),
      ...(heapBefore ? { apiHeap: heapBetween(heapBefore, await readApiHeap(baseUrl)) } : {}),
    };
    // The read floor answers only the history.
    if (variant.entry === READ_FLOOR || HISTORY_ONLY) {
      console.log(JSON.stringify({ round, variant: variant.name, history }));
    } else {
      await load({ url: pullUrl, connections: 32, durationSeconds: 3, headers: { authorization: `Bearer ${apiKey}` } });
      const pull = await run(pullUrl, `Bearer ${apiKey}`);
      const sync = await measureSync(baseUrl, user.token);
      console.log(JSON.stringify({ round, variant: variant.name, history, pull, sync }));
    }
    await api.stop();
  }
}
await server.stop();
