/**
 * The Enable Banking face's transaction paging over a year (docs/faces/enablebanking.md, issue 43): the
 * pages joined are exactly the native history — every booked entry in posting order (ties on posted_at
 * by id) with its balance after, then every pending one — and a bank's dated ids count each booking day
 * from 1 across page boundaries. Continuation keys are signed and bound to the session's account: a key
 * edited by hand, or taken to another account or another session, is 422 WRONG_CONTINUATION_KEY.
 */
import { minorToDecimal } from '@sandbank/core';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Loose, startTestApp, type TestApp, type TestUser } from '../../helpers.ts';
import { warsawDay } from '../personalities-helpers.ts';
import { type App, enablebankingCalls } from './calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
}, 900_000);
afterAll(() => app?.close());

const { register, eb, auth, redirected, sandboxSession, decide } = enablebankingCalls(() => app);

const DAY = 86_400_000;
const BOOKED = 1_095;
const PENDING = 105;

/** A year of booked history by SQL (three a day, a credit every fourth, some pairs posted at the same instant), then pending ones by the API. */
async function seedYear(user: TestUser, accountId: string) {
  await app.db.query(
    `insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, posted_at)
     select gen_random_uuid(), $1, $2, 'year_' || i, case when i % 4 = 1 then 50000 + i else -(100 + i) end, 'PLN', at,
            'Year ' || i, '{"source":"sandbank-simulator"}', at
       from generate_series(1, $3::int) as i,
            lateral (select now() - interval '364 days' + ((i - i % 7 % 2) * interval '28700 seconds') as at) as t`,
    [accountId, user.id, BOOKED],
  );
  await app.db.query(
    `update accounts set (balance, transaction_count) = (select sum(amount), count(*) from transactions where account_id = $1) where id = $1`,
    [accountId],
  );
  for (let batch = 0; batch < PENDING; batch += 15) {
    const calls = Array.from({ length: Math.min(15, PENDING - batch) }, (_, i) =>
      simulate(app, user, { accountId, amount: -(batch + i + 1), status: 'pending', description: `Pending ${batch + i}` }),
    );
    for (const res of await Promise.all(calls)) expect(res.status).toBe(201);
  }
}

/** The native history, every page of 100 (newest first). */
async function nativeHistory(user: TestUser, accountId: string): Promise<Loose[]> {
  const all: Loose[] = [];
  for (let page = 1; ; page++) {
    const res = await app.call('GET', `/v1/accounts/${accountId}/transactions?limit=100&page=${page}`, {
      token: user.accessToken,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    all.push(...res.body.data);
    if (!res.body.meta.hasMore) return all;
  }
}

/** Every page of a period, following continuation_key; the pages and the keys. */
async function pagesOf(application: App, uid: string, from: string) {
  const pages: Loose[][] = [];
  const keys: string[] = [];
  let key: string | undefined;
  do {
    const query = new URLSearchParams(key ? { continuation_key: key } : { date_from: from });
    const res = await eb(application, 'GET', `/accounts/${uid}/transactions?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body.transactions);
    key = res.body.continuation_key;
    if (key) keys.push(key);
  } while (key);
  return { pages, keys };
}

const byOrder = (a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1);
const wireAmount = (minor: bigint) => ({
  transaction_amount: { currency: 'PLN', amount: minorToDecimal(Number(minor < 0n ? -minor : minor), 'PLN') },
  credit_debit_indicator: minor < 0n ? 'DBIT' : 'CRDT',
});

describe('Enable Banking paging over a year', () => {
  it('joins into exactly the native history, with dated ids counted per day across pages', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Rok');
    await seedYear(user, accountId);
    const native = await nativeHistory(user, accountId);
    const booked = native
      .filter((t) => t.status === 'posted')
      .sort((a, b) => byOrder([new Date(a.postedAt).toISOString(), a.id], [new Date(b.postedAt).toISOString(), b.id]));
    const pending = native.filter((t) => t.status === 'pending').sort((a, b) => byOrder([a.date, a.id], [b.date, b.id]));
    expect([booked.length, pending.length]).toEqual([BOOKED, PENDING]);

    const application = await register(user);
    const session = await sandboxSession(application);
    const uid = session.accounts[0].uid as string;
    const from = warsawDay(new Date(Date.now() - 364 * DAY));
    const { pages, keys } = await pagesOf(application, uid, from);
    expect(pages.map((page) => page.length)).toEqual(Array(12).fill(100));
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(512);

    // The seeded history starts inside the period: the balance after each entry is the running sum.
    let balance = 0n;
    const expected = [
      ...booked.map((t) => {
        balance += BigInt(t.amount);
        return {
          entry_reference: t.id,
          status: 'BOOK',
          ...wireAmount(BigInt(t.amount)),
          booking_date: warsawDay(t.postedAt),
          remittance_information: [t.description],
          balance_after_transaction: { currency: 'PLN', amount: minorToDecimal(Number(balance), 'PLN') },
        };
      }),
      ...pending.map((t) => ({
        entry_reference: t.id,
        status: 'PDNG',
        ...wireAmount(BigInt(t.amount)),
        remittance_information: [t.description],
      })),
    ];
    const shape = (t: Loose) => ({
      entry_reference: t.entry_reference,
      status: t.status,
      transaction_amount: t.transaction_amount,
      credit_debit_indicator: t.credit_debit_indicator,
      booking_date: t.booking_date,
      remittance_information: t.remittance_information,
      balance_after_transaction: t.balance_after_transaction,
    });
    expect(pages.flat().map(shape)).toEqual(expected.map(shape));

    // ING numbers each booking day's entries from 1 (D + day + 7 digits), the same on every page.
    const started = await auth(application, 'ING Bank Śląski', 'ing');
    const approved = await decide(user, started.body.authorization_id, { approve: true, accountIds: [accountId] });
    const ing = await eb(application, 'POST', '/sessions', { code: redirected(approved.body.data.redirect).code });
    expect(ing.status, JSON.stringify(ing.body)).toBe(200);
    const ingPages = await pagesOf(application, ing.body.accounts[0].uid, from);
    const places = new Map<string, number>();
    const datedIds = booked.map((t) => {
      const day = warsawDay(t.postedAt);
      const place = (places.get(day) ?? 0) + 1;
      places.set(day, place);
      return `D${day.replaceAll('-', '')}${String(place).padStart(7, '0')}`;
    });
    const ingBooked = ingPages.pages.flat().filter((t) => t.status === 'BOOK');
    expect(ingBooked.map((t) => t.entry_reference)).toEqual(datedIds);
    expect(Math.max(...places.values())).toBeGreaterThan(1);
  }, 120_000);

  it('refuses a key edited by hand, or taken to another account or another session', async () => {
    const user = await app.createUser();
    const first = await openAccount(app, user, 'Pierwsze');
    await openAccount(app, user, 'Drugie');
    await seedYear(user, first);
    const application = await register(user);
    const session = await sandboxSession(application);
    const [uid, otherUid] = session.accounts.map((a: Loose) => a.uid as string);
    const from = warsawDay(new Date(Date.now() - 364 * DAY));
    const page = await eb(application, 'GET', `/accounts/${uid}/transactions?date_from=${from}`);
    const key = page.body.continuation_key as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    // It continues here.
    expect((await eb(application, 'GET', `/accounts/${uid}/transactions?continuation_key=${key}`)).status).toBe(200);

    const refused = async (target: App, at: string, text: string) => {
      const res = await eb(target, 'GET', `/accounts/${at}/transactions?continuation_key=${encodeURIComponent(text)}`);
      expect([res.status, res.body.error], text).toEqual([422, 'WRONG_CONTINUATION_KEY']);
    };
    // Another account of the same session.
    await refused(application, otherUid, key);
    // The same account through another session of the same application.
    const again = await sandboxSession(application);
    await refused(application, again.accounts[0].uid, key);
    // Edited: a balance (or a position) of one's choosing, keeping the signature.
    const [body, signature] = key.split('.') as [string, string];
    const content = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    const edited = Buffer.from(JSON.stringify({ ...content, a: { ...content.a, b: '999999999' } })).toString('base64url');
    await refused(application, uid, `${edited}.${signature}`);
    // Unsigned, as keys used to be, or signed by someone else.
    await refused(application, uid, body);
    await refused(application, uid, `${body}.${'A'.repeat(22)}`);
  }, 120_000);
});
