/** Accounts in currencies other than PLN (docs/concepts/currencies.md): the list, opening, booking, the database's check. */
import { simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const SUPPORTED = ['PLN', 'EUR', 'USD', 'GBP', 'CHF', 'CZK', 'SEK', 'NOK', 'DKK', 'HUF', 'JPY', 'KWD'];

async function openIn(user: TestUser, currency: string): Promise<string> {
  const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: currency, currency } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('GET /v1/currencies', () => {
  it('lists the supported currencies with their ISO 4217 names and exponents, without a token', async () => {
    const res = await app.call<Output['currencies']['listCurrencies']>('GET', '/v1/currencies');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c) => c.code)).toEqual(SUPPORTED);
    expect(res.body.data).toContainEqual({ code: 'PLN', name: 'Zloty', exponent: 2 });
    expect(res.body.data).toContainEqual({ code: 'EUR', name: 'Euro', exponent: 2 });
    expect(res.body.data).toContainEqual({ code: 'JPY', name: 'Yen', exponent: 0 });
    expect(res.body.data).toContainEqual({ code: 'KWD', name: 'Kuwaiti Dinar', exponent: 3 });
  });
});

describe('POST /v1/accounts with a currency', () => {
  it.each(SUPPORTED)('opens a %s account', async (currency) => {
    const user = await app.createUser();
    const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'A', currency } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ currency, balance: 0, heldAmount: 0, availableBalance: 0 });
  });

  it.each(['BHD', 'eur', 'XXX', ''])('refuses %j with 400 VALIDATION_ERROR naming the supported list', async (currency) => {
    const user = await app.createUser();
    const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'A', currency } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    const detail = res.body.details.find((d: { path: string }) => d.path === 'currency');
    for (const code of SUPPORTED) expect(detail.message).toContain(code);
    const list = await app.call('GET', '/v1/accounts', { token: user.accessToken });
    expect(list.body.data).toEqual([]);
  });
});

describe('booking on an account in another currency', () => {
  it('books in the account’s currency when the request names none, and answers it with the amount', async () => {
    const user = await app.createUser();
    for (const [currency, amount] of [
      ['EUR', 12_345],
      ['JPY', 1],
      ['KWD', 10_000_000_000_000 / 10],
    ] as const) {
      const accountId = await openIn(user, currency);
      const res = await simulate(app, user, { accountId, amount });
      expect(res.status).toBe(201);
      expect(res.body.data.transaction).toMatchObject({ amount, currency });
      const history = await app.call('GET', `/v1/accounts/${accountId}/transactions`, { token: user.accessToken });
      expect(history.body.data).toEqual([expect.objectContaining({ amount, currency })]);
      const account = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
      expect(account.body.data).toMatchObject({ balance: amount, currency });
    }
  });

  it('refuses a currency other than the account’s with 400 and books nothing; the same one is accepted', async () => {
    const user = await app.createUser();
    const accountId = await openIn(user, 'JPY');
    const wrong = await simulate(app, user, { accountId, amount: 500, currency: 'PLN' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'currency', message: "Must be the account's currency, JPY" }],
    });
    const account = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
    expect(account.body.data).toMatchObject({ balance: 0 });
    const right = await simulate(app, user, { accountId, amount: 500, currency: 'JPY' });
    expect(right.status).toBe(201);
  });

  it('the transaction.created event carries the account’s currency', async () => {
    const user = await app.createUser();
    const accountId = await openIn(user, 'KWD');
    await simulate(app, user, { accountId, amount: 1 });
    const { rows } = await app.db.query<{ currency: string }>(
      `select payload->'transaction'->>'currency' as currency from events where user_id = $1 and type = 'transaction.created'`,
      [user.id],
    );
    expect(rows).toEqual([{ currency: 'KWD' }]);
  });

  it('the database refuses a transaction whose currency is not its account’s, and a change of an account’s currency under its transactions', async () => {
    const user = await app.createUser();
    const accountId = await openIn(user, 'EUR');
    await simulate(app, user, { accountId, amount: 100 });
    await expect(
      app.db.query(
        `insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, raw, posted_at)
         values (gen_random_uuid(), $1, $2, 'x', 5, 'PLN', now(), '{}', now())`,
        [accountId, user.id],
      ),
    ).rejects.toThrow(/transactions_account_currency_fkey/);
    await expect(app.db.query(`update accounts set currency = 'USD' where id = $1`, [accountId])).rejects.toThrow(
      /transactions_account_currency_fkey/,
    );
  });
});

describe('replaying a booking on an account in another currency', () => {
  it('treats an omitted currency and the account’s named one as the same request, either way round', async () => {
    const user = await app.createUser();
    const accountId = await openIn(user, 'EUR');
    const first = await simulate(app, user, { accountId, amount: 700, externalTxnId: 'a' });
    expect(first.status).toBe(201);
    const named = await simulate(app, user, { accountId, amount: 700, externalTxnId: 'a', currency: 'EUR' });
    expect([named.status, named.body.data.transaction.id]).toEqual([200, first.body.data.transaction.id]);
    const second = await simulate(app, user, { accountId, amount: 800, externalTxnId: 'b', currency: 'EUR' });
    expect(second.status).toBe(201);
    const omitted = await simulate(app, user, { accountId, amount: 800, externalTxnId: 'b' });
    expect([omitted.status, omitted.body.data.transaction.id]).toEqual([200, second.body.data.transaction.id]);
    const other = await simulate(app, user, { accountId, amount: 800, externalTxnId: 'b', currency: 'PLN' });
    expect([other.status, other.body.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    const account = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
    expect(account.body.data.balance).toBe(1500);
  });
});

describe('other currencies through the world and the pull endpoint', () => {
  it('a snapshot restores JPY and KWD accounts with their currency, balances and transactions', async () => {
    const user = await app.createUser();
    const jpy = await openIn(user, 'JPY');
    const kwd = await openIn(user, 'KWD');
    await simulate(app, user, { accountId: jpy, amount: 1 });
    await simulate(app, user, { accountId: kwd, amount: 10 ** 12 });
    const snap = await app.call('POST', '/v1/sandbox/snapshots', { token: user.accessToken, body: { name: 'fx' } });
    expect(snap.status).toBe(201);
    await simulate(app, user, { accountId: kwd, amount: -5 });
    await openIn(user, 'EUR');
    const restored = await app.call('POST', '/v1/sandbox/restore', {
      token: user.accessToken,
      body: { snapshotId: snap.body.data.id },
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    const list = await app.call('GET', '/v1/accounts', { token: user.accessToken });
    expect(
      list.body.data.map((a: { name: string; currency: string; balance: number }) => [a.name, a.currency, a.balance]),
    ).toEqual([
      ['JPY', 'JPY', 1],
      ['KWD', 'KWD', 10 ** 12],
    ]);
    // A restore gives the accounts new ids (docs/concepts/disposable-worlds.md).
    const restoredKwd = list.body.data.find((a: { currency: string }) => a.currency === 'KWD').id;
    const history = await app.call('GET', `/v1/accounts/${restoredKwd}/transactions`, { token: user.accessToken });
    expect(history.body.data).toEqual([expect.objectContaining({ amount: 10 ** 12, currency: 'KWD' })]);
  });

  it('the pull endpoint answers each transaction with its account’s currency', async () => {
    const user = await app.createUser();
    const key = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'Pull' } });
    const eur = await openIn(user, 'EUR');
    const jpy = await openIn(user, 'JPY');
    await simulate(app, user, { accountId: eur, amount: 250 });
    await simulate(app, user, { accountId: jpy, amount: 3 });
    const pulled = await app.call('GET', `/api/owner/${user.id}/transactions`, { token: key.body.data.key });
    expect(pulled.status, JSON.stringify(pulled.body)).toBe(200);
    const seen = pulled.body.data.map((t: { accountId: string; amount: number; currency: string }) => [
      t.accountId,
      t.amount,
      t.currency,
    ]);
    expect(seen.sort()).toEqual(
      [
        [eur, 250, 'EUR'],
        [jpy, 3, 'JPY'],
      ].sort(),
    );
  });
});
