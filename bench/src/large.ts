/**
 * `pnpm bench:large` (bench/README.md, "A large database"): does a large database slow Sandbank down? The same
 * measurements on two databases of one server, in turns (empty, large, empty, large…) so that the
 * noise of a shared machine falls on both: an empty one, and one holding 10,000 worlds and 10 million
 * transactions (with their 10 million events) loaded set-wise beside the measured users:
 *
 * - booking: the same-work floor's load against `POST /v1/simulations/transaction` in turns with the
 *   floor (floor.ts), as `pnpm --filter @sandbank/bench floor` does; the ratio to the floor;
 * - history: an account's first page (1,000 rows), 32 clients, p99;
 * - sync: an incremental sync (a cursor at the end of the log), 32 clients, p99.
 *
 * Each figure is the median over the turns, reported large ÷ empty; the target is ≤ 1.2
 * (bench/README.md, "A large database"). Each turn starts the API and a worker afresh on its database.
 * BENCH_LARGE_WORLDS / BENCH_LARGE_TRANSACTIONS shrink it for a try-out. Writes
 * bench/results/<date>-large.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withClient } from '@sandbank/testing';
import { postgresPids } from './cpu.ts';
import { compareWithFloor, type FloorComparison, type FloorShapedTarget, seedFloorShape } from './floor.ts';
import { type LoadResult, load } from './load.ts';
import { post, seedHistory } from './seed.ts';
import { APP_ENTRY, freshDatabase, type Proc, root, spawnApp, startPostgres, waitFor200 } from './stack.ts';

const CONNECTIONS = Number(process.env.BENCH_CLIENTS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const READ_SECONDS = Number(process.env.BENCH_READ_SECONDS ?? 10);
const TURNS = Number(process.env.BENCH_TURNS ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const POSTGRES_PORT = Number(process.env.BENCH_PG_PORT ?? 54359);
const WORLDS = Number(process.env.BENCH_LARGE_WORLDS ?? 10_000);
const TRANSACTIONS = Number(process.env.BENCH_LARGE_TRANSACTIONS ?? 10_000_000);
/** Worlds per INSERT … SELECT: 1,000 worlds × 1,000 transactions is a million rows a statement. */
const WORLDS_PER_STATEMENT = 1_000;
const baseUrl = `http://127.0.0.1:${PORT}`;

const server = await startPostgres();
const emptyUrl = await freshDatabase(server, 'sandbank_large_empty');
const largeUrl = await freshDatabase(server, 'sandbank_large');

let stack: { api: Proc; worker: Proc } | undefined;
async function startStack(databaseUrl: string): Promise<{ api: Proc; worker: Proc }> {
  const env = {
    DATABASE_URL: databaseUrl,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    RATE_LIMIT_ENABLED: 'true',
    RATE_LIMIT_IP: '100000000/60',
    LIMIT_OPEN_ACCOUNTS: '100000',
  };
  const api = spawnApp(APP_ENTRY.api, env);
  const worker = spawnApp(APP_ENTRY.worker, env);
  await waitFor200(`${baseUrl}/readyz`, performance.now());
  return { api, worker };
}
async function stopStack(): Promise<void> {
  await Promise.all([stack?.api.stop(), stack?.worker.stop()]);
  stack = undefined;
}

interface Reader {
  token: string;
  accountId: string;
  /** A sync cursor at the end of the reader's log: each request reads what changed since (nothing). */
  cursor: string;
}

/** The reader: one user, one account with 1,000 transactions (SQL), and its sync cursor at the end. */
async function seedReader(databaseUrl: string): Promise<Reader> {
  const auth = await post<{ accessToken: string }>(baseUrl, '/v1/auth/register', {
    email: `reader.${Date.now()}@example.com`,
    password: 'bench-password-1',
  });
  const account = await post<{ id: string }>(baseUrl, '/v1/accounts', { name: 'reader' }, auth.accessToken);
  await seedHistory(databaseUrl, account.id, 1_000);
  let cursor: string | undefined;
  for (;;) {
    const query = new URLSearchParams({ limit: '200', ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${baseUrl}/v1/transactions/sync?${query}`, {
      headers: { authorization: `Bearer ${auth.accessToken}` },
    });
    if (response.status !== 200) throw new Error(`sync answered ${response.status}: ${await response.text()}`);
    const { data } = (await response.json()) as { data: { nextCursor: string; hasMore: boolean } };
    cursor = data.nextCursor;
    if (!data.hasMore) break;
  }
  return { token: auth.accessToken, accountId: account.id, cursor };
}

interface Seeded {
  target: FloorShapedTarget;
  reader: Reader;
}

interface Measured {
  booking: Omit<FloorComparison, 'turns'>;
  history: LoadResult;
  sync: LoadResult;
}

async function measure(label: string, { target, reader }: Seeded): Promise<Measured> {
  const processes = stack;
  if (!processes) throw new Error('the API is not running');
  const { turns: _turns, ...booking } = await compareWithFloor(baseUrl, target, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    turns: 1,
    pids: { api: processes.api.child.pid, worker: processes.worker.child.pid },
    groups: { postgres: () => postgresPids(POSTGRES_PORT) },
  });
  const headers = { authorization: `Bearer ${reader.token}` };
  const read = async (url: string) => {
    await load({ url, connections: CONNECTIONS, durationSeconds: 3, headers }); // warm
    const result = await load({ url, connections: CONNECTIONS, durationSeconds: READ_SECONDS, headers });
    if (result.non2xx + result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result;
  };
  const history = await read(`${baseUrl}/v1/accounts/${reader.accountId}/transactions`);
  const sync = await read(`${baseUrl}/v1/transactions/sync?${new URLSearchParams({ cursor: reader.cursor, limit: '100' })}`);
  console.log(
    `${label}: booking ${booking.sandbankRequestsPerSecond} req/s (${booking.ratio ?? '—'} of the floor), history p99 ${history.p99} ms (${history.requestsPerSecond} req/s), sync p99 ${sync.p99} ms (${sync.requestsPerSecond} req/s)`,
  );
  return { booking, history, sync };
}

/**
 * 10,000 worlds (users, one account each) and their transactions, each with its
 * `transaction.created` event (already relayed: the worker has nothing to deliver), in set-wise
 * statements of a million rows; then the accounts' balances and counters, and VACUUM ANALYZE (the
 * steady state autovacuum reaches). Returns the seconds it took.
 */
async function loadLargeDatabase(databaseUrl: string): Promise<{ seconds: number; tableBytes: Record<string, string> }> {
  const started = performance.now();
  const perWorld = Math.max(1, Math.floor(TRANSACTIONS / WORLDS));
  await withClient(databaseUrl, async (client) => {
    await client.query('set synchronous_commit = off');
    await client.query(`set maintenance_work_mem = '512MB'`);
    // Ids in time order (uuidv7(), PostgreSQL 18, as the API's UUIDv7), so the primary keys grow at
    // their right edge; the other indexes of the two big tables are dropped and built again after
    // the load (one sort each instead of ten million random insertions).
    const { rows: uuidv7 } = await client.query<{ ok: boolean }>(`select to_regproc('uuidv7') is not null as ok`);
    const newId = uuidv7[0]?.ok ? 'uuidv7()' : 'gen_random_uuid()';
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `select indexname as name, indexdef as definition from pg_indexes
        where schemaname = 'public' and tablename in ('transactions', 'events') and indexname not like '%_pkey'`,
    );
    for (const index of indexes) await client.query(`drop index "${index.name}"`);
    await client.query(
      `insert into users (id, email, password_hash)
       select ${newId}, 'large-' || i || '@example.com', 'not-a-password-hash' from generate_series(1, $1) as i`,
      [WORLDS],
    );
    await client.query(
      `insert into accounts (id, user_id, name) select ${newId}, id, 'Large' from users where email like 'large-%'`,
    );
    await client.query(
      `create temporary table large_accounts as
       select row_number() over (order by a.id) as n, a.id, a.user_id from accounts a join users u on u.id = a.user_id
       where u.email like 'large-%'`,
    );
    for (let first = 1; first <= WORLDS; first += WORLDS_PER_STATEMENT) {
      const chunk = performance.now();
      await client.query(
        `with booked as (
           insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, posted_at)
           select ${newId}, a.id, a.user_id, 'large_' || i, 1000 + (i % 500), 'PLN',
                  now() - (i * interval '69 seconds'), 'Seeded history', '{"source":"sandbank-simulator"}', now() - (i * interval '69 seconds')
             from large_accounts a cross join generate_series(1, $3::int) as i
            where a.n between $1 and $2
           returning id, user_id)
         insert into events (id, type, user_id, payload, seq, relayed_at)
         select ${newId}, 'transaction.created', user_id, jsonb_build_object('transaction', jsonb_build_object('id', id)),
                row_number() over (), now()
           from booked`,
        [first, first + WORLDS_PER_STATEMENT - 1, perWorld],
      );
      console.log(
        `loaded worlds ${first}–${Math.min(WORLDS, first + WORLDS_PER_STATEMENT - 1)} in ${((performance.now() - chunk) / 1000).toFixed(1)} s`,
      );
    }
    await client.query(
      `update accounts a set (balance, transaction_count) = (t.total, t.n)
         from (select account_id, sum(amount) as total, count(*) as n from transactions group by account_id) t
        where t.account_id = a.id and a.id in (select id from large_accounts)`,
    );
    const indexing = performance.now();
    for (const index of indexes) await client.query(index.definition);
    console.log(`built ${indexes.length} indexes again in ${((performance.now() - indexing) / 1000).toFixed(1)} s`);
    await client.query('vacuum analyze');
    await client.query('checkpoint');
  });
  const tableBytes = await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ name: string; size: string }>(
      `select relname as name, pg_size_pretty(pg_total_relation_size(oid)) as size from pg_class
        where relname in ('transactions', 'events', 'accounts', 'users')`,
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.size]));
  });
  return { seconds: Math.round((performance.now() - started) / 1000), tableBytes };
}

const ratio = (large: number, empty: number) => (empty > 0 ? Number((large / empty).toFixed(2)) : null);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
/** The median turn of each figure (the booking's own fields, the reads' p99 and req/s). */
function medianOf(turns: Measured[]) {
  const of = (pick: (m: Measured) => number | null) => median(turns.map(pick).filter((v): v is number => v !== null));
  return {
    bookingRequestsPerSecond: of((m) => m.booking.sandbankRequestsPerSecond),
    bookingP99: of((m) => m.booking.sandbankP99),
    floorRequestsPerSecond: turns.some((m) => m.booking.floorRequestsPerSecond)
      ? of((m) => m.booking.floorRequestsPerSecond)
      : null,
    bookingRatioToFloor: turns.some((m) => m.booking.ratio) ? of((m) => m.booking.ratio) : null,
    historyP99: of((m) => m.history.p99),
    historyRequestsPerSecond: of((m) => m.history.requestsPerSecond),
    syncP99: of((m) => m.sync.p99),
    syncRequestsPerSecond: of((m) => m.sync.requestsPerSecond),
  };
}

try {
  console.log(`loading ${WORLDS} worlds and ${TRANSACTIONS} transactions…`);
  const loaded = await loadLargeDatabase(largeUrl);
  console.log(`loaded in ${loaded.seconds} s: ${JSON.stringify(loaded.tableBytes)}`);
  const databases = { empty: emptyUrl, large: largeUrl };
  const seeded: Partial<Record<keyof typeof databases, Seeded>> = {};
  for (const [name, url] of Object.entries(databases) as [keyof typeof databases, string][]) {
    stack = await startStack(url);
    seeded[name] = { target: await seedFloorShape(baseUrl), reader: await seedReader(url) };
    await stopStack();
  }
  const turns: Record<keyof typeof databases, Measured[]> = { empty: [], large: [] };
  for (let turn = 1; turn <= TURNS; turn++) {
    for (const name of ['empty', 'large'] as const) {
      const seeds = seeded[name];
      if (!seeds) throw new Error(`${name} was not seeded`);
      stack = await startStack(databases[name]);
      turns[name].push(await measure(`turn ${turn}, ${name} database`, seeds));
      await stopStack();
    }
  }
  const empty = medianOf(turns.empty);
  const large = medianOf(turns.large);
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, loadAverage: os.loadavg().map((v) => Number(v.toFixed(1))) },
    clients: CONNECTIONS,
    turns: TURNS,
    worlds: WORLDS,
    transactions: TRANSACTIONS,
    load: loaded,
    empty,
    large,
    largeOverEmpty: {
      bookingRatioToFloor:
        empty.bookingRatioToFloor && large.bookingRatioToFloor
          ? ratio(large.bookingRatioToFloor, empty.bookingRatioToFloor)
          : null,
      bookingRequestsPerSecond: ratio(large.bookingRequestsPerSecond, empty.bookingRequestsPerSecond),
      bookingP99: ratio(large.bookingP99, empty.bookingP99),
      historyP99: ratio(large.historyP99, empty.historyP99),
      syncP99: ratio(large.syncP99, empty.syncP99),
    },
    everyTurn: turns,
  };
  console.log(JSON.stringify({ empty, large, largeOverEmpty: results.largeOverEmpty }, null, 2));
  const file = path.join(root, 'bench/results', `${results.date.slice(0, 10)}-large.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written ${path.relative(root, file)}`);
} finally {
  await stopStack();
  // The large database is some 7.5 GB: dropped, so the bench leaves the disk as it found it.
  await withClient(server.adminUrl, async (client) => {
    for (const name of ['sandbank_large', 'sandbank_large_empty'])
      await client.query(`drop database if exists "${name}" with (force)`);
  }).catch((error: unknown) => console.error('could not drop the bench databases', error));
  await server.stop();
}
