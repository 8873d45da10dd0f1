import { ibanOf } from '@sandbank/core';
import { waitUntil } from '@sandbank/testing';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('POST /v1/accounts', () => {
  it('opens a PLN account with a zero balance and a trimmed name', async () => {
    const user = await app.createUser();
    const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: '  Daily  ' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      name: 'Daily',
      balance: 0,
      currency: 'PLN',
      status: 'open',
      createdAt: expect.stringMatching(ISO_MS),
      closedAt: null,
      heldAmount: 0,
      availableBalance: 0,
      iban: ibanOf(res.body.data.id),
      bic: 'SNDBPLP0',
      cardFxMargin: '0.02',
    });
  });

  it('accepts currency PLN and refuses an unsupported currency (the others: currencies.test.ts)', async () => {
    const user = await app.createUser();
    const ok = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'A', currency: 'PLN' } });
    expect(ok.status).toBe(201);
    const bhd = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'B', currency: 'BHD' } });
    expect(bhd.status).toBe(400);
    expect(bhd.body.details).toContainEqual({ path: 'currency', message: expect.any(String) });
  });

  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['over 100 characters', 'x'.repeat(101)],
    ['a control character', 'a\u0000b'],
    ['not a string', 42],
  ])('refuses a name that is %s', async (_, name) => {
    const user = await app.createUser();
    const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'name' }] });
  });

  it('accepts a name of exactly 100 characters', async () => {
    const user = await app.createUser();
    const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'x'.repeat(100) } });
    expect(res.status).toBe(201);
  });

  it('refuses unknown keys such as balance', async () => {
    const user = await app.createUser();
    const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Rich', balance: 10 } });
    expect(res.status).toBe(400);
    expect(res.body.details).toContainEqual({ path: 'balance', message: 'Unknown field' });
  });

  it('keeps names unique among open accounts, ignoring case, per user', async () => {
    const user = await app.createUser();
    const other = await app.createUser();
    await openAccount(app, user, 'Savings');
    const taken = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: ' SAVINGS ' } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('ACCOUNT_NAME_TAKEN');
    await openAccount(app, other, 'Savings');
  });

  it('frees the name once the account is closed', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Holiday');
    const closed = await app.call('POST', `/v1/accounts/${accountId}/close`, {
      token: user.accessToken,
      body: { name: 'Holiday', password: user.password },
    });
    expect(closed.status).toBe(200);
    await openAccount(app, user, 'holiday');
  });

  it('gives exactly one of many concurrent requests for the same name', async () => {
    const user = await app.createUser();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Race' } })),
    );
    expect(results.filter((res) => res.status === 201)).toHaveLength(1);
    expect(results.filter((res) => res.body.code === 'ACCOUNT_NAME_TAKEN')).toHaveLength(9);
  });
});

describe('GET /v1/accounts', () => {
  it("lists only the caller's accounts, oldest first, in the list envelope", async () => {
    const user = await app.createUser();
    const other = await app.createUser();
    const first = await openAccount(app, user, 'First');
    const second = await openAccount(app, user, 'Second');
    await openAccount(app, other, 'Foreign');
    const res = await app.call('GET', '/v1/accounts', { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.data.map((a: { id: string }) => a.id)).toEqual([first, second]);
    expect(res.body.meta).toEqual({ page: 1, limit: 50, total: 2, hasMore: false });
  });

  it('paginates', async () => {
    const user = await app.createUser();
    for (const name of ['a', 'b', 'c']) await openAccount(app, user, name);
    const res = await app.call('GET', '/v1/accounts?page=2&limit=2', { token: user.accessToken });
    expect(res.body.data.map((a: { name: string }) => a.name)).toEqual(['c']);
    expect(res.body.meta).toEqual({ page: 2, limit: 2, total: 3, hasMore: false });
    const bad = await app.call('GET', '/v1/accounts?limit=201', { token: user.accessToken });
    expect(bad.status).toBe(400);
  });
});

describe('GET /v1/accounts/:id', () => {
  it('returns the account with its current balance', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Main');
    expect((await simulate(app, user, { accountId, amount: 1234 })).status).toBe(201);
    const res = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: accountId, name: 'Main', balance: 1234, status: 'open' });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const user = await app.createUser();
    const missing = await app.call('GET', '/v1/accounts/0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d', { token: user.accessToken });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    const malformed = await app.call('GET', '/v1/accounts/not-an-id', { token: user.accessToken });
    expect(malformed.status).toBe(400);
  });
});

describe('POST /v1/accounts/:id/close', () => {
  const close = (user: TestUser, id: string, body: Record<string, unknown>) =>
    app.call('POST', `/v1/accounts/${id}/close`, { token: user.accessToken, body });

  it('closes an account with a zero balance', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'To close');
    const res = await close(user, accountId, { name: 'To close', password: user.password });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: accountId,
      status: 'closed',
      balance: 0,
      closedAt: expect.stringMatching(ISO_MS),
    });
    const again = await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken });
    expect(again.body.data.status).toBe('closed');
  });

  it('refuses a name that does not match with 422 CONFIRMATION_MISMATCH', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Exact');
    const res = await close(user, accountId, { name: 'exact', password: user.password });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CONFIRMATION_MISMATCH');
  });

  it('refuses a wrong password with 403 INVALID_PASSWORD', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Guarded');
    const res = await close(user, accountId, { name: 'Guarded', password: 'wrong-password' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('INVALID_PASSWORD');
  });

  it('refuses a non-zero balance with 409 BALANCE_NOT_ZERO, and closes once it is zero again', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Funded');
    await simulate(app, user, { accountId, amount: 500 });
    const res = await close(user, accountId, { name: 'Funded', password: user.password });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('BALANCE_NOT_ZERO');
    await simulate(app, user, { accountId, amount: -500 });
    expect((await close(user, accountId, { name: 'Funded', password: user.password })).status).toBe(200);
  });

  it('refuses to close a closed account with 409 ACCOUNT_CLOSED; the account takes no transactions', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Once');
    await close(user, accountId, { name: 'Once', password: user.password });
    const again = await close(user, accountId, { name: 'Once', password: user.password });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ACCOUNT_CLOSED');
    const credit = await simulate(app, user, { accountId, amount: 100 });
    expect(credit.status).toBe(409);
    expect(credit.body.code).toBe('ACCOUNT_CLOSED');
  });

  it('never closes an account that a concurrent credit has funded, whichever of the two wins', async () => {
    const user = await app.createUser();
    // Each round holds the account's row (as a long transaction would), queues the close and the four
    // credits behind it in a chosen order, and lets go: PostgreSQL grants a row's waiters in turn, so
    // both outcomes are seen every run, with no timers deciding which.
    const rounds: ('close' | 'credit')[] = ['close', 'credit', 'close', 'credit'];
    for (const [round, first] of rounds.entries()) {
      const accountId = await openAccount(app, user, `Race ${round}`);
      const locker = new pg.Client({ connectionString: app.databaseUrl });
      await locker.connect();
      const waiting = (count: number) =>
        waitUntil(
          async () => {
            const { rows } = await app.db.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            );
            return rows[0]!.n >= count;
          },
          { what: `${count} requests waiting on the account's row` },
        );
      let closing: Promise<CallResult> | undefined;
      let credits: Promise<CallResult>[] = [];
      try {
        await locker.query('begin');
        await locker.query('select 1 from accounts where id = $1 for update', [accountId]);
        const startClose = () => close(user, accountId, { name: `Race ${round}`, password: user.password });
        const startCredits = () => Array.from({ length: 4 }, () => simulate(app, user, { accountId, amount: 100 }));
        if (first === 'close') {
          closing = startClose();
          await waiting(1);
          credits = startCredits();
        } else {
          credits = startCredits();
          await waiting(4);
          closing = startClose();
        }
        await waiting(5);
      } finally {
        await locker.query('commit');
        await locker.end();
      }
      const [closed, ...credited] = await Promise.all([closing!, ...credits]);
      const booked = credited.filter((res) => res.status === 201).length;
      if (first === 'close') {
        expect(closed.status).toBe(200);
        expect(credited.map((res) => res.body.code)).toEqual(Array(4).fill('ACCOUNT_CLOSED'));
      } else {
        expect(closed.body.code).toBe('BALANCE_NOT_ZERO');
        expect(booked).toBe(4);
      }
      const ledger = await ledgerOf(app, accountId);
      expectConsistent(ledger);
      expect(ledger.status).toBe(first === 'close' ? 'closed' : 'open');
    }
  });

  it('requires name and password', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const res = await close(user, accountId, {});
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['name', 'password']);
  });
});
