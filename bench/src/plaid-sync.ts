/**
 * `pnpm --filter @sandbank/bench plaid`: the Plaid face's `/transactions/sync` (issue 29), each
 * beside its reference in the same sitting — the native `GET /v1/transactions/sync`, which reads the
 * same event log (`readSyncPage`), so the ratio is what Plaid's shape costs on top:
 *
 * 1. from nothing on an Item whose one account has 100,000 transactions (seeded by SQL, as `reads`
 *    does), one client following `next_cursor` while `has_more`: transactions/s, at 200 a page (the
 *    native maximum, so both make the same pages) and at Plaid's maximum of 500;
 * 2. an incremental sync: 50 bookings after the end of that sync, then 32 connections syncing from
 *    the saved cursor (each answer: the 50) for BENCH_SECONDS (default 10), Plaid and native in
 *    turns (Plaid, native, Plaid, native; medians): p50/p99 and requests/s.
 *
 * One API process (the production bundle, rate limits off), no worker (sync does not need it).
 * Prints one JSON line and writes `bench/results/<date>-plaid-sync.json`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { load } from './load.ts';
import { createApiKey, post, seedHistory, seedUsers } from './seed.ts';
import { APP_ENTRY, freshDatabase, root, spawnApp, startPostgres, waitFor200 } from './stack.ts';
import { measureSync } from './sync.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3900);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const HISTORY = Number(process.env.BENCH_PLAID_HISTORY ?? 100_000);
const baseUrl = `http://127.0.0.1:${PORT}`;

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_plaid_sync');
const api = spawnApp(APP_ENTRY.api, { DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1' });
try {
  await waitFor200(`${baseUrl}/readyz`, performance.now());
  const [user] = await seedUsers(baseUrl, { users: 1, accountsPerUser: 1, webhookUrl: null });
  const accountId = user?.accountIds[0];
  if (!user || !accountId) throw new Error('seeding failed');
  await seedHistory(databaseUrl, accountId, HISTORY);
  const credentials = { 'PLAID-CLIENT-ID': user.id, 'PLAID-SECRET': await createApiKey(baseUrl, user.token) };

  async function plaid<T>(route: string, body: Record<string, unknown>): Promise<T> {
    const response = await fetch(`${baseUrl}/plaid${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...credentials },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  const { public_token } = await plaid<{ public_token: string }>('/sandbox/public_token/create', {
    institution_id: 'ins_sandbank',
    initial_products: ['transactions'],
  });
  const { access_token } = await plaid<{ access_token: string }>('/item/public_token/exchange', { public_token });

  /** One client syncing the Item from nothing to the end; the cursor at the end. */
  async function plaidFromNothing(count: number) {
    const started = performance.now();
    let cursor = '';
    let transactions = 0;
    let pages = 0;
    for (;;) {
      const page = await plaid<{
        added: unknown[];
        modified: unknown[];
        removed: unknown[];
        next_cursor: string;
        has_more: boolean;
      }>('/transactions/sync', { access_token, cursor, count });
      transactions += page.added.length + page.modified.length + page.removed.length;
      pages += 1;
      cursor = page.next_cursor;
      if (!page.has_more) break;
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      result: {
        transactions,
        pages,
        seconds: Number(seconds.toFixed(2)),
        transactionsPerSecond: Math.round(transactions / seconds),
      },
      cursor,
    };
  }

  /** The native sync's cursor at the end (measureSync does not hand it back). */
  async function nativeEnd(): Promise<string> {
    let cursor: string | undefined;
    for (;;) {
      const query = new URLSearchParams({ limit: '200', ...(cursor ? { cursor } : {}) });
      const response = await fetch(`${baseUrl}/v1/transactions/sync?${query}`, {
        headers: { authorization: `Bearer ${user?.token}` },
      });
      const { data } = (await response.json()) as { data: { nextCursor: string; hasMore: boolean } };
      cursor = data.nextCursor;
      if (!data.hasMore) return cursor;
    }
  }

  // Warm both paths a little (JIT, plans), then measure from nothing: native, Plaid 200, Plaid 500.
  await measureSync(baseUrl, user.token, 200).catch(() => undefined);
  const native = await measureSync(baseUrl, user.token, 200);
  const plaid200 = await plaidFromNothing(200);
  const plaid500 = await plaidFromNothing(500);

  // 50 bookings after the end; both clients' saved cursors then have exactly those to sync.
  const nativeCursor = await nativeEnd();
  const plaidCursor = plaid500.cursor;
  for (let i = 0; i < 50; i++) {
    await post(baseUrl, '/v1/simulations/transaction', { accountId, amount: -1_25, description: 'incremental' }, user.token);
  }
  const plaidTurn = () =>
    load({
      url: `${baseUrl}/plaid/transactions/sync`,
      method: 'POST',
      connections: 32,
      durationSeconds: SECONDS,
      headers: { 'content-type': 'application/json', ...credentials },
      request: () => ({ body: JSON.stringify({ access_token, cursor: plaidCursor, count: 100 }) }),
    });
  const nativeTurn = () =>
    load({
      url: `${baseUrl}/v1/transactions/sync?${new URLSearchParams({ cursor: nativeCursor, limit: '100' })}`,
      connections: 32,
      durationSeconds: SECONDS,
      headers: { authorization: `Bearer ${user.token}` },
    });
  const turns = { plaid: [] as Awaited<ReturnType<typeof load>>[], native: [] as Awaited<ReturnType<typeof load>>[] };
  for (let turn = 0; turn < 2; turn++) {
    turns.plaid.push(await plaidTurn());
    turns.native.push(await nativeTurn());
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  };
  const summary = (runs: Awaited<ReturnType<typeof load>>[]) => ({
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  });
  const incremental = { plaid: summary(turns.plaid), native: summary(turns.native) };
  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  const result = {
    date: new Date().toISOString(),
    history: HISTORY,
    fromNothing: { native, plaid200: plaid200.result, plaid500: plaid500.result },
    incremental,
    ratios: {
      fromNothingPlaid200ToNative: ratio(plaid200.result.transactionsPerSecond, native.transactionsPerSecond),
      fromNothingPlaid500ToNative: ratio(plaid500.result.transactionsPerSecond, native.transactionsPerSecond),
      incrementalP99PlaidToNative: ratio(incremental.plaid.p99, incremental.native.p99),
      incrementalThroughputPlaidToNative: ratio(incremental.plaid.requestsPerSecond, incremental.native.requestsPerSecond),
    },
  };
  console.log(JSON.stringify(result));
  const file = path.join(root, 'bench/results', `${result.date.slice(0, 10)}-plaid-sync.json`);
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await api.stop();
  await server.stop();
}
