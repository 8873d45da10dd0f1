import type { AppRouter } from '@sandbank/core';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function setup(): Promise<{ user: TestUser; accountId: string }> {
  const user = await app.createUser();
  return { user, accountId: await openAccount(app, user) };
}

describe('POST /v1/simulations/transaction', () => {
  it('books a credit: 201 with the transaction and the new balance, one row and one event', async () => {
    const { user, accountId } = await setup();
    const res = await simulate(app, user, { accountId, amount: 12_50, description: 'Salary' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      transaction: {
        id: expect.any(String),
        externalTxnId: expect.stringMatching(/^sim_/),
        accountId,
        amount: 12_50,
        currency: 'PLN',
        date: expect.stringMatching(ISO_MS),
        description: 'Salary',
        raw: { source: 'sandbank-simulator' },
        status: 'posted',
        postedAt: res.body.data.transaction.date,
        version: 1,
        merchant: null,
        category: null,
        reversalOf: null,
      },
      balance: 12_50,
      availableBalance: 12_50,
    });
    const ledger = await ledgerOf(app, accountId);
    expectConsistent(ledger);
    expect(ledger.events).toHaveLength(1);
    expect(ledger.events[0]).toMatchObject({ type: 'transaction.created', user_id: user.id });
    expect(ledger.events[0]?.payload).toEqual({
      transaction: res.body.data.transaction,
      balances: { balance: 12_50, availableBalance: 12_50 },
    });
  });

  it('books debits down to exactly zero, and refuses one grosz more with 422 INSUFFICIENT_FUNDS', async () => {
    const { user, accountId } = await setup();
    await simulate(app, user, { accountId, amount: 1000 });
    const debit = await simulate(app, user, { accountId, amount: -1000 });
    expect(debit.status).toBe(201);
    expect(debit.body.data.balance).toBe(0);
    const over = await simulate(app, user, { accountId, amount: -1 });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('INSUFFICIENT_FUNDS');
    const ledger = await ledgerOf(app, accountId);
    expect(ledger.transactions).toHaveLength(2);
    expectConsistent(ledger);
  });

  it('defaults description to an empty string and takes currency PLN', async () => {
    const { user, accountId } = await setup();
    const res = await simulate(app, user, { accountId, amount: 5, currency: 'PLN' });
    expect(res.body.data.transaction).toMatchObject({ description: '', currency: 'PLN' });
  });

  it('back-dates, normalising the date to UTC with milliseconds', async () => {
    const { user, accountId } = await setup();
    const res = await simulate(app, user, { accountId, amount: 5, date: '2024-02-29T23:30:00+02:00' });
    expect(res.status).toBe(201);
    expect(res.body.data.transaction.date).toBe('2024-02-29T21:30:00.000Z');
  });

  it('refuses a date in the future, beyond a small clock-skew allowance', async () => {
    const { user, accountId } = await setup();
    const future = new Date(Date.now() + 5 * 60_000).toISOString();
    const res = await simulate(app, user, { accountId, amount: 5, date: future });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'date', message: expect.any(String) }]);
    const skewed = await simulate(app, user, { accountId, amount: 5, date: new Date(Date.now() + 5_000).toISOString() });
    expect(skewed.status).toBe(201);
  });

  it.each([
    ['zero', { amount: 0 }, 'amount'],
    ['a fraction', { amount: 1.5 }, 'amount'],
    ['over 10^12', { amount: 1_000_000_000_001 }, 'amount'],
    ['under -10^12', { amount: -1_000_000_000_001 }, 'amount'],
    ['a string amount', { amount: '100' }, 'amount'],
    ['a boolean amount', { amount: true }, 'amount'],
    ['an array amount', { amount: [5] }, 'amount'],
    ['a non-PLN currency', { amount: 1, currency: 'EUR' }, 'currency'],
    ['a date that is not ISO', { amount: 1, date: '21/11/2026' }, 'date'],
    ['a date before 1970', { amount: 1, date: '1969-12-31T23:59:59.999Z' }, 'date'],
    ['a description over 500 characters', { amount: 1, description: 'x'.repeat(501) }, 'description'],
    ['a description with U+0000', { amount: 1, description: 'a\u0000' }, 'description'],
    ['an empty externalTxnId', { amount: 1, externalTxnId: '' }, 'externalTxnId'],
    ['an externalTxnId with spaces', { amount: 1, externalTxnId: 'a b' }, 'externalTxnId'],
    ['an externalTxnId over 128 characters', { amount: 1, externalTxnId: 'x'.repeat(129) }, 'externalTxnId'],
    ['a raw field set by the caller', { amount: 1, raw: { source: 'bank' } }, 'raw'],
  ])('refuses %s with 400 and changes nothing', async (_, fields, path) => {
    const { user, accountId } = await setup();
    const res = await simulate(app, user, { accountId, ...fields } as never);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    const ledger = await ledgerOf(app, accountId);
    expect(ledger.transactions).toHaveLength(0);
    expect(ledger.events).toHaveLength(0);
  });

  it('accepts amounts of exactly ±10^12', async () => {
    const { user, accountId } = await setup();
    expect((await simulate(app, user, { accountId, amount: 1_000_000_000_000 })).status).toBe(201);
    const debit = await simulate(app, user, { accountId, amount: -1_000_000_000_000 });
    expect(debit.status).toBe(201);
    expect(debit.body.data.balance).toBe(0);
  });

  it('keeps balances within 10^15 with 422 BALANCE_LIMIT_EXCEEDED', async () => {
    const { user, accountId } = await setup();
    await app.orm.em.fork().execute('update accounts set balance = ? where id = ?', [1_000_000_000_000_000 - 10, accountId]);
    const res = await simulate(app, user, { accountId, amount: 11 });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('BALANCE_LIMIT_EXCEEDED');
    expect((await simulate(app, user, { accountId, amount: 10 })).body.data.balance).toBe(1_000_000_000_000_000);
  });

  it('answers 404 for an unknown account and writes no event', async () => {
    const user = await app.createUser();
    const res = await simulate(app, user, { accountId: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d', amount: 1 });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    const { rows } = await app.db.query('select count(*)::int as n from events where user_id = $1', [user.id]);
    expect(rows[0].n).toBe(0);
  });

  it("answers 404 for another user's account and changes nothing", async () => {
    const { accountId } = await setup();
    const stranger = await app.createUser();
    const res = await simulate(app, stranger, { accountId, amount: 100 });
    expect(res.status).toBe(404);
    const ledger = await ledgerOf(app, accountId);
    expect(ledger).toMatchObject({ balance: 0, transactions: [], events: [] });
  });
});

describe('idempotency on (accountId, externalTxnId)', () => {
  it('replays the same payload with 200, the original and the current balance, changing nothing', async () => {
    const { user, accountId } = await setup();
    const body = { accountId, amount: 700, externalTxnId: 'ref-1', description: 'Rent', date: '2026-01-05T10:00:00.000Z' };
    const first = await simulate(app, user, body);
    expect(first.status).toBe(201);
    await simulate(app, user, { accountId, amount: 300 });
    const again = await simulate(app, user, body);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ transaction: first.body.data.transaction, balance: 1000, availableBalance: 1000 });
    const ledger = await ledgerOf(app, accountId);
    expect(ledger.transactions).toHaveLength(2);
    expectConsistent(ledger);
  });

  it('replays a request without a date (its date is the original one)', async () => {
    const { user, accountId } = await setup();
    const first = await simulate(app, user, { accountId, amount: 5, externalTxnId: 'no-date' });
    const again = await simulate(app, user, { accountId, amount: 5, externalTxnId: 'no-date' });
    expect(again.status).toBe(200);
    expect(again.body.data.transaction).toEqual(first.body.data.transaction);
  });

  it('replays even when the payload could no longer be booked (debit now uncovered, account closed)', async () => {
    const { user, accountId } = await setup();
    await simulate(app, user, { accountId, amount: 100 });
    const debit = { accountId, amount: -100, externalTxnId: 'spend' };
    const first = await simulate(app, user, debit);
    expect(first.status).toBe(201);
    // The balance is now 0: the same debit could not be booked again, yet it replays.
    expect((await simulate(app, user, debit)).status).toBe(200);
    const closed = await app.call('POST', `/v1/accounts/${accountId}/close`, {
      token: user.accessToken,
      body: {
        name: (await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken })).body.data.name,
        password: user.password,
      },
    });
    expect(closed.status).toBe(200);
    const afterClose = await simulate(app, user, debit);
    expect(afterClose.status).toBe(200);
    expect(afterClose.body.data).toEqual({ transaction: first.body.data.transaction, balance: 0, availableBalance: 0 });
    expect((await simulate(app, user, { accountId, amount: 1 })).body.code).toBe('ACCOUNT_CLOSED');
  });

  it.each([
    ['amount', { amount: 701 }],
    ['description', { description: 'Other' }],
    ['date', { date: '2026-01-06T10:00:00.000Z' }],
  ])('refuses a different %s under the same externalTxnId with 409 IDEMPOTENCY_CONFLICT', async (_, change) => {
    const { user, accountId } = await setup();
    const body = { accountId, amount: 700, externalTxnId: 'ref-x', description: 'Rent', date: '2026-01-05T10:00:00.000Z' };
    await simulate(app, user, body);
    const res = await simulate(app, user, { ...body, ...change });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('IDEMPOTENCY_CONFLICT');
    const ledger = await ledgerOf(app, accountId);
    expect(ledger.balance).toBe(700);
    expect(ledger.events).toHaveLength(1);
  });

  it('compares the due times a pending booking asked for: another settleAfter or expireAfter is 409', async () => {
    const { user, accountId } = await setup();
    const body = {
      accountId,
      amount: 300,
      externalTxnId: 'card-1',
      status: 'pending',
      settleAfter: 'P2D',
      date: '2026-01-05T10:00:00.000Z',
    };
    const first = await simulate(app, user, body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await simulate(app, user, body)).status).toBe(200);
    for (const change of [{ settleAfter: 'P9D' }, { settleAfter: undefined }, { expireAfter: 'P5D' }]) {
      const res = await simulate(app, user, { ...body, ...change } as typeof body);
      expect([res.status, res.body.code], JSON.stringify(change)).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    }
    expect((await ledgerOf(app, accountId)).events).toHaveLength(1);
  });

  it('compares a repeated request with the one that booked it, also after the transaction moved on', async () => {
    const { user, accountId } = await setup();
    await simulate(app, user, { accountId, amount: 100_00 });
    const body = {
      accountId,
      amount: -20_00,
      externalTxnId: 'card-2',
      status: 'pending',
      settleAfter: 'P2D',
      description: 'Kawiarnia',
      date: '2026-01-05T10:00:00.000Z',
    };
    const { id } = (await simulate(app, user, body)).body.data.transaction;
    const call = (verb: string, path: string, payload: object) =>
      app.call(verb, `/v1/transactions/${id}${path}`, { token: user.accessToken, body: payload });
    expect((await call('POST', '/post', { amount: -23_00 })).status).toBe(200);
    expect((await call('PATCH', '', { description: 'Kawiarnia Nowa' })).status).toBe(200);

    // The same request as the booking: the transaction as it is now, nothing booked.
    const repeated = await simulate(app, user, { ...body, settleAfter: 'PT48H' });
    expect(repeated.status).toBe(200);
    expect(repeated.body.data.transaction).toMatchObject({ id, amount: -23_00, version: 3, description: 'Kawiarnia Nowa' });
    // Not what the booking asked for, even where it is what the transaction shows now.
    for (const change of [
      { amount: -21_00 },
      { amount: -23_00 },
      { description: 'Kawiarnia Nowa' },
      { settleAfter: 'P9D' },
      { status: 'posted', settleAfter: undefined },
    ]) {
      const res = await simulate(app, user, { ...body, ...change } as typeof body);
      expect([res.status, res.body.code], JSON.stringify(change)).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    }
    const ledger = await ledgerOf(app, accountId);
    expect(ledger.balance).toBe(77_00);
    expect(ledger.transactions).toHaveLength(2);
  });

  it('compares a row booked without a fingerprint (as by a scenario) field by field while it is unchanged', async () => {
    const { user, accountId } = await setup();
    const body = { accountId, amount: 5_00, externalTxnId: 'from-scenario', date: '2026-01-05T10:00:00.000Z' };
    expect((await simulate(app, user, body)).status).toBe(201);
    await app.db.query(
      `update transactions set request_fingerprint = null where account_id = $1 and external_txn_id = 'from-scenario'`,
      [accountId],
    );
    expect((await simulate(app, user, body)).status).toBe(200);
    expect((await simulate(app, user, { ...body, amount: 6_00 })).body.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('scopes externalTxnId per account', async () => {
    const { user, accountId } = await setup();
    const second = await openAccount(app, user);
    expect((await simulate(app, user, { accountId, amount: 1, externalTxnId: 'shared' })).status).toBe(201);
    expect((await simulate(app, user, { accountId: second, amount: 1, externalTxnId: 'shared' })).status).toBe(201);
  });

  it('makes exactly one row, one balance change and one event when many clients race the same request', async () => {
    const { user, accountId } = await setup();
    const body = { accountId, amount: 250, externalTxnId: 'race-1' };
    const results = await Promise.all(Array.from({ length: 40 }, () => simulate(app, user, body)));
    const statuses = results.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(39);
    const ids = new Set(results.map((res) => res.body.data.transaction.id));
    expect(ids.size).toBe(1);
    const ledger = await ledgerOf(app, accountId);
    expect(ledger.balance).toBe(250);
    expect(ledger.transactions).toHaveLength(1);
    expect(ledger.events).toHaveLength(1);
  });

  it('refuses all but one when the same key races with different payloads', async () => {
    const { user, accountId } = await setup();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => simulate(app, user, { accountId, amount: 100 + i, externalTxnId: 'race-2' })),
    );
    const created = results.filter((res) => res.status === 201);
    expect(created).toHaveLength(1);
    expect(results.filter((res) => res.body.code === 'IDEMPOTENCY_CONFLICT')).toHaveLength(19);
    const ledger = await ledgerOf(app, accountId);
    expect(ledger.balance).toBe(created[0]?.body.data.transaction.amount);
    expectConsistent(ledger);
  });
});

describe('over tRPC', () => {
  it('serves the same procedures with end-to-end types, replay and error codes included', async () => {
    const user = await app.createUser();
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${app.url}/trpc`, headers: () => ({ authorization: `Bearer ${user.accessToken}` }) })],
    });
    const account = await client.accounts.createAccount.mutate({ name: 'Typed' });
    const body = { accountId: account.data.id, amount: 4200, externalTxnId: 'typed-1' };
    const first = await client.simulations.simulateTransaction.mutate(body);
    expect(first.data.balance).toBe(4200);
    const again = await client.simulations.simulateTransaction.mutate(body);
    expect(again.data.transaction).toEqual(first.data.transaction);
    const listed = await client.accounts.listAccounts.query();
    expect(listed.data.map((a) => a.balance)).toEqual([4200]);
    const history = await client.transactions.listAccountTransactions.query({ id: account.data.id });
    expect(history.data).toEqual([first.data.transaction]);
    const failure = await client.simulations.simulateTransaction
      .mutate({ ...body, amount: -5000, externalTxnId: 'typed-2' })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(TRPCClientError);
    expect(failure.data.code).toBe('INSUFFICIENT_FUNDS');
    const coerced = await client.simulations.simulateTransaction.mutate({ ...body, amount: '5' as never }).catch((e) => e);
    expect(coerced.data.code).toBe('VALIDATION_ERROR');
  });
});
