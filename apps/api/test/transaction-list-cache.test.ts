/**
 * The transaction list cache: the history and the pull answer a page they answered before without
 * reading its rows, and never once anything on the page has changed, whichever API process wrote.
 */
import { jsonOf, readTransactionList, TRANSACTION_COLUMNS, TransactionListCache } from '@sandbank/core';
import { listMeta, type Transaction } from '@sandbank/schemas';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { lifecycleCalls } from './lifecycle-calls.ts';

let app: TestApp;
let other: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  // A second API process on the same database, with its own cache.
  other = await startTestApp({}, { databaseUrl: app.databaseUrl });
});
afterAll(async () => {
  await other.close();
  await app.close();
});
const { act, funded, patch, pendingCard } = lifecycleCalls(() => app);

/** This app's lookups and whole reads so far, from its `/metrics`. */
async function lookups(on: TestApp): Promise<Record<'hit' | 'stale' | 'new' | 'reads', number>> {
  const text = (await fetch(`${on.url}/metrics`).then((res) => res.text())) as string;
  const reads = Number(/^sandbank_transaction_list_cache_reads_total (\d+)$/m.exec(text)?.[1]);
  const count = (result: string) =>
    Number(new RegExp(`^sandbank_transaction_list_cache_lookups_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
  return { hit: count('hit'), stale: count('stale'), new: count('new'), reads };
}

async function history(on: TestApp, user: TestUser, accountId: string, query = '') {
  const res = await on.call('GET', `/v1/accounts/${accountId}/transactions${query}`, { token: user.accessToken });
  expect(res.status).toBe(200);
  return res.body as { data: Transaction[]; meta: ReturnType<typeof listMeta> };
}

describe('the transaction list cache', () => {
  it('answers an unchanged page again without reading it, and shows every change at once', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    expect((await simulate(app, user, { accountId, amount: 100_00, description: 'Salary' })).status).toBe(201);
    const card = await pendingCard(user, accountId, -25_00);
    const other_ = await pendingCard(user, accountId, -10_00);

    const before = await lookups(app);
    const first = await history(app, user, accountId);
    const again = await history(app, user, accountId);
    expect(again).toEqual(first);
    expect(await lookups(app)).toEqual({ ...before, hit: before.hit + 1, new: before.new + 1, reads: before.reads + 1 });
    expect(first.data.map((t) => t.id)).toEqual([other_.id, card.id, first.data[2]?.id]);

    // A patch raises the version: the page is read again.
    expect((await patch(user, card.id, { description: 'Żabka Warszawa' })).status).toBe(200);
    const patched = await history(app, user, accountId);
    expect(patched.data[1]).toMatchObject({ id: card.id, description: 'Żabka Warszawa', version: 2 });
    expect(await lookups(app)).toEqual({
      hit: before.hit + 1,
      stale: before.stale + 1,
      new: before.new + 1,
      reads: before.reads + 2,
    });

    // Posted with a tip, voided, and a new booking on top.
    expect((await act(user, card.id, 'post', { amount: -27_50 })).status).toBe(200);
    expect((await history(app, user, accountId)).data[1]).toMatchObject({ status: 'posted', amount: -27_50 });
    expect((await act(user, other_.id, 'void')).status).toBe(200);
    const afterVoid = await history(app, user, accountId);
    expect(afterVoid.data.map((t) => t.id)).toEqual([card.id, first.data[2]?.id]);
    expect(afterVoid.meta).toEqual(listMeta(1, 50, 2));
    const newest = (await simulate(app, user, { accountId, amount: 5_00, description: 'Refund' })).body.data.transaction;
    expect((await history(app, user, accountId)).data[0]).toEqual(newest);
  });

  it('counts a row booked beyond the page: the same rows with a new total are another answer', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    expect((await history(app, user, accountId)).data).toEqual([]);
    expect((await history(app, user, accountId)).data).toEqual([]);
    expect((await simulate(app, user, { accountId, amount: 100_00, date: daysAgo(4) })).status).toBe(201);
    const page = await history(app, user, accountId, '?limit=1');
    expect(page.meta).toEqual(listMeta(1, 1, 1));
    // The same rows and total under another query: its own meta.
    expect((await history(app, user, accountId)).meta).toEqual(listMeta(1, 50, 1));
    expect((await simulate(app, user, { accountId, amount: 1_00, date: daysAgo(300) })).status).toBe(201);
    const later = await history(app, user, accountId, '?limit=1');
    expect(later.data).toEqual(page.data);
    expect(later.meta).toEqual(listMeta(1, 1, 2));
  });

  it('shows a write made through another API process, and a reset, to a page it kept', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const booked = (await simulate(app, user, { accountId, amount: 100_00 })).body.data.transaction;
    expect((await history(other, user, accountId)).data).toEqual([booked]);
    expect((await history(other, user, accountId)).data).toEqual([booked]);

    expect((await patch(user, booked.id, { category: 'salary' })).status).toBe(200);
    expect((await history(other, user, accountId)).data).toEqual([{ ...booked, category: 'salary', version: 2 }]);

    const key = (await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'Budget' } })).body.data.key;
    const owner = encodeURIComponent(user.email.split('@')[0] ?? '');
    const pull = async () => (await other.call('GET', `/api/owner/${owner}/transactions`, { token: key })).body;
    expect((await pull()).data).toHaveLength(1);
    expect((await simulate(app, user, { accountId, amount: 7_00 })).status).toBe(201);
    expect((await pull()).data).toHaveLength(2);

    expect((await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } })).status).toBe(
      200,
    );
    const gone = await other.call('GET', `/v1/accounts/${accountId}/transactions`, { token: user.accessToken });
    expect(gone.status).toBe(404);
  });

  it('answers requests racing a change with the new page, reading it no more often than it was found stale', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    expect((await simulate(app, user, { accountId, amount: 1_00 })).status).toBe(201);
    await history(app, user, accountId);
    const newest = (await simulate(app, user, { accountId, amount: 2_00 })).body.data.transaction;
    const before = await lookups(app);
    const pages = await Promise.all(Array.from({ length: 32 }, () => history(app, user, accountId)));
    for (const page of pages) expect(page.data[0]).toEqual(newest);
    const after = await lookups(app);
    expect(after.hit + after.stale - before.hit - before.stale).toBe(32);
    expect(after.reads - before.reads).toBeGreaterThanOrEqual(1);
    expect(after.reads - before.reads).toBeLessThanOrEqual(after.stale - before.stale);
  });

  it('shares a read with a request that arrived before it was issued, never with one that arrived after', async () => {
    const cache = new TransactionListCache();
    const list = (total: number) => ({ data: [], meta: listMeta(1, 50, total) });
    const waiting: ((answer: ReturnType<typeof list>) => void)[] = [];
    const release = (answer: ReturnType<typeof list>) => {
      for (const resolve of waiting) resolve(answer);
    };
    let calls = 0;
    const slow = () => {
      calls++;
      return new Promise<ReturnType<typeof list>>((resolve) => waiting.push(resolve));
    };
    const early = cache.ticket();
    const first = cache.read('query', cache.ticket(), slow);
    const joined = cache.read('query', early, slow);
    const late = cache.ticket();
    const own = cache.read('query', late, async () => {
      calls++;
      return list(2);
    });
    release(list(1));
    expect(await first).toEqual(list(1));
    expect(await joined).toBe(await first);
    expect(await own).toEqual(list(2));
    expect([calls, cache.reads]).toEqual([2, 2]);
  });

  it('keeps the answer of the read issued last, whichever ends first', async () => {
    const cache = new TransactionListCache();
    const list = (total: number) => ({ data: [], meta: listMeta(1, 50, total) });
    let finishOlder: (answer: ReturnType<typeof list>) => void = () => {};
    const older = cache.read('query', cache.ticket(), () => new Promise((resolve) => (finishOlder = resolve)));
    const newer = cache.read('query', cache.ticket(), async () => list(2));
    expect(await newer).toEqual(list(2));
    finishOlder(list(1));
    expect(await older).toEqual(list(1));
    expect(cache.match('query', 2, '')).toEqual(list(2));
  });

  it('keeps within its bytes, and each kept answer is frozen and sent as the JSON it was kept with', () => {
    const cache = new TransactionListCache(4_000);
    const list = (n: number) => ({ data: [], meta: listMeta(n, 50, 1_000_000 + n) });
    const kept = cache.keep('first', list(1));
    expect(jsonOf(kept).toString()).toBe(JSON.stringify(list(1)));
    expect(() => {
      (kept.meta as { total: number }).total = 0;
    }).toThrow(TypeError);
    for (let n = 2; n <= 200; n++) cache.keep(`page ${n}`, list(n));
    expect(cache.size).toBeLessThan(100);
    expect(cache.has('first')).toBe(false);
    expect(cache.match('page 200', 1_000_200, '')).toEqual(list(200));
    expect(cache.match('page 200', 1_000_201, '')).toBeUndefined();
  });

  it('keeps nothing read inside a database transaction, whose writes may yet roll back', async () => {
    const { user, accountId } = await funded();
    const cache = new TransactionListCache();
    const params = {
      scope: { userId: user.id, accountId },
      range: {},
      page: 1,
      limit: 50,
      total: 'counter',
    } as const;
    const inside = await app.orm.em.fork().transactional((em) => readTransactionList(em, params, cache));
    expect(inside?.meta.total).toBe(1);
    expect(cache.size).toBe(0);
    expect(await readTransactionList(app.orm.em.fork(), params, cache)).toEqual(inside);
    expect(cache.size).toBe(1);
  });
});

describe('a transaction version', () => {
  it('rises with every change a client can see: the database refuses one that does not', async () => {
    const { user, accountId } = await funded();
    const { id } = await pendingCard(user, accountId, -5_00);
    const refused = (sql: string) =>
      expect(app.db.query(sql, [id])).rejects.toMatchObject({ constraint: 'transactions_version_raised' });
    // Every column the API shows (TRANSACTION_COLUMNS), changed alone.
    const changes: Record<string, string> = {
      id: 'gen_random_uuid()',
      account_id: 'gen_random_uuid()',
      external_txn_id: "external_txn_id || '-2'",
      amount: 'amount - 1',
      currency: "case when currency = 'EUR' then 'PLN' else 'EUR' end",
      date: "date - interval '1 second'",
      description: "description || ' (quietly)'",
      raw: `raw || '{"note":1}'`,
      status: "'posted'",
      posted_at: 'now()',
      merchant: "'Biedronka'",
      category: "'shopping'",
      reversal_of: 'gen_random_uuid()',
      original_amount: '-1',
      original_currency: "'USD'",
      exchange_rate: '1',
      payment_id: 'gen_random_uuid()',
      counterpart_transaction_id: 'gen_random_uuid()',
    };
    const shown = TRANSACTION_COLUMNS.split(', ').filter((column) => column !== 'version');
    expect(Object.keys(changes).sort()).toEqual([...shown].sort());
    for (const column of shown) await refused(`update transactions set ${column} = ${changes[column]} where id = $1`);
    // Columns the API does not show may change alone; a shown one with a new version.
    await app.db.query(`update transactions set settle_at = now() + interval '1 day', updated_at = now() where id = $1`, [id]);
    await app.db.query(`update transactions set description = 'Changed', version = version + 1 where id = $1`, [id]);
    await refused(`update transactions set version = version - 1 where id = $1`);
    const { rows } = await app.db.query('select description, version from transactions where id = $1', [id]);
    expect(rows).toEqual([{ description: 'Changed', version: 2 }]);
  });
});
