/**
 * A statement streams: its entries are read through a cursor a page at a time (500) and written as
 * they come. Over a history of several pages, every format still reads back with every entry in
 * order and opening + Σ entries = closing, for a whole period and one that starts mid-history; a
 * client that walks away mid-file leaves no transaction open behind it. The history is seeded in SQL
 * on the worlds' wall time (`sandbank_wall_now()`), so the periods computed from `Date.now()` agree
 * with it at any instant (scripts/test-at-instants.ts runs this file at its boundaries).
 */
import http from 'node:http';
import { withClient } from '@sandbank/testing';
import { openAccount } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../../helpers.ts';
import { READERS } from './parse-back.ts';
import { download, warsawDay } from './statement-world.ts';

const COUNT = 1_234; // two full pages and a part
let app: TestApp;
let user: TestUser;
let accountId: string;
let amounts: { amount: number; postedAt: string }[];

beforeAll(async () => {
  app = await startTestApp();
  user = await app.createUser();
  accountId = await openAccount(app, user, 'Strumień & <pages>');
  await withClient(app.databaseUrl, async (client) => {
    await client.query(
      `insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, merchant, raw, posted_at)
       select gen_random_uuid(), $1, (select user_id from accounts where id = $1), 'page_' || i,
              case when i % 3 = 0 then -(100 + i) else 250 + i end, 'PLN',
              sandbank_wall_now() - (i * interval '6 hours') - interval '1 hour', 'Wpis nr ' || i || ' & <żółć>', case when i % 2 = 0 then 'Sklep "' || i || '"' end,
              '{"source":"sandbank-simulator"}', sandbank_wall_now() - (i * interval '6 hours')
         from generate_series(1, $2::int) as i`,
      [accountId, COUNT],
    );
    await client.query(
      'update accounts set (balance, transaction_count) = (select sum(amount), count(*) from transactions where account_id = $1) where id = $1',
      [accountId],
    );
    const { rows } = await client.query(
      `select amount::int as amount, to_char(posted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "postedAt"
         from transactions where account_id = $1 order by posted_at, id`,
      [accountId],
    );
    amounts = rows;
  });
});
afterAll(() => app?.close());

const FORMATS = ['camt.053', 'mt940', 'mt940-cp852', 'ofx', 'ofx1', 'csv'] as const;
const query = (format: (typeof FORMATS)[number]) =>
  format === 'mt940-cp852' ? 'format=mt940&encoding=cp852' : `format=${format}`;
const dayAgo = (days: number) => warsawDay(new Date(Date.now() - days * 86_400_000).toISOString());

describe('a statement of several pages', () => {
  it.each(FORMATS)('%s: every entry in order, and opening + Σ = closing, whole and from mid-history', async (format) => {
    for (const from of [dayAgo(330), dayAgo(100)]) {
      const file = await download(app, `/v1/accounts/${accountId}/statement?${query(format)}&from=${from}`, user.accessToken);
      expect(file.status, file.text.slice(0, 500)).toBe(200);
      expect(file.headers.get('transfer-encoding')).toBe('chunked'); // streamed, no length known up front
      const expected = amounts.filter((row) => warsawDay(row.postedAt) >= from).map((row) => row.amount);
      const closing = amounts.reduce((total, row) => total + row.amount, 0);
      const read = READERS[format]?.(file.bytes);
      expect(read?.amounts.length).toBe(expected.length);
      expect(read?.amounts).toEqual(expected);
      expect(read?.closing).toBe(closing);
      expect(read?.opening).toBe(closing - expected.reduce((total, amount) => total + amount, 0));
    }
    expect(amounts.length).toBe(COUNT);
  });

  it('streams at most a quarter of the pool at once: one more is 429 with Retry-After, never queued', async () => {
    const small = await startTestApp({ DATABASE_POOL_SIZE: '4' }); // one statement at a time
    try {
      const owner = await small.createUser();
      const big = await openAccount(small, owner, 'Big');
      // 6,000 camt entries (~7 MB) cannot all sit in loopback's socket buffers: the first download stays open while unread.
      await withClient(small.databaseUrl, (client) =>
        client.query(
          `insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, posted_at)
           select gen_random_uuid(), $1, (select user_id from accounts where id = $1), 'big_' || i, 100 + i, 'PLN',
                  sandbank_wall_now() - (i * interval '1 hour'), 'Wpis ' || i, '{"source":"sandbank-simulator"}', sandbank_wall_now() - (i * interval '1 hour')
             from generate_series(1, 6000) as i`,
          [big],
        ),
      );
      const path = `/v1/accounts/${big}/statement?format=camt.053&from=${dayAgo(300)}`;
      let first: http.ClientRequest | undefined;
      const started = new Promise<http.IncomingMessage>((resolve, reject) => {
        first = http.get(small.url + path, { headers: { authorization: `Bearer ${owner.accessToken}` } }, (res) => {
          res.pause(); // a client that does not read
          resolve(res);
        });
        first.on('error', (error) => (first?.destroyed ? undefined : reject(error)));
      });
      expect((await started).statusCode).toBe(200);
      const refused = await small.call('GET', path, { token: owner.accessToken });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(refused.headers.get('retry-after')).toBe('2');
      first?.destroy();
      await expect
        .poll(async () => (await download(small, path, owner.accessToken)).status, { timeout: 10_000, interval: 100 })
        .toBe(200);
    } finally {
      await small.close();
    }
  });

  it('leaves no transaction open when the client goes away mid-file', async () => {
    const path = `/v1/accounts/${accountId}/statement?format=camt.053&from=${dayAgo(330)}`;
    for (let i = 0; i < 25; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(app.url + path, { headers: { authorization: `Bearer ${user.accessToken}` } }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error) => (req.destroyed ? resolve() : reject(error)));
      });
    }
    const open = async () =>
      withClient(app.databaseUrl, async (client) => {
        const { rows } = await client.query(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
        );
        return rows[0].n as number;
      });
    await expect.poll(open, { timeout: 5_000, interval: 50 }).toBe(0);
    const file = await download(app, `/v1/accounts/${accountId}/statement?format=csv&from=${dayAgo(330)}`, user.accessToken);
    expect(file.status).toBe(200);
  });
});
