/**
 * Payments over real HTTP (docs/concepts/payments.md): own-account transfers (both legs, linked,
 * one database transaction), RJCT/AM04 without overdraft, Idempotency-Key, reading payments, and
 * the refusals that create nothing.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type PaymentBody = Output['payments']['createPayment'];
type Transaction = Output['transactions']['getTransaction']['data'];

async function twoAccounts(funds = 100_00): Promise<{ user: TestUser; from: string; to: string }> {
  const user = await app.createUser();
  const from = await openAccount(app, user);
  const to = await openAccount(app, user);
  if (funds > 0) expect((await simulate(app, user, { accountId: from, amount: funds })).status).toBe(201);
  return { user, from, to };
}

const pay = (user: TestUser, body: Record<string, unknown>, key?: string) =>
  app.call<PaymentBody>('POST', '/v1/payments', {
    token: user.accessToken,
    body,
    ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
  });

const account = async (user: TestUser, id: string) =>
  (await app.call<Output['accounts']['getAccount']>('GET', `/v1/accounts/${id}`, { token: user.accessToken })).body.data;

const transaction = async (user: TestUser, id: string) =>
  (await app.call<Output['transactions']['getTransaction']>('GET', `/v1/transactions/${id}`, { token: user.accessToken })).body
    .data;

describe('own-account transfers', () => {
  it('books both legs at once: transfer category, linked to each other, ACSC', async () => {
    const { user, from, to } = await twoAccounts();
    const res = await pay(user, { fromAccountId: from, to: { accountId: to }, amount: 30_00, description: 'Savings' });
    expect(res.status).toBe(201);
    const payment = res.body.data;
    expect(payment).toMatchObject({
      fromAccountId: from,
      to: { accountId: to },
      amount: 30_00,
      currency: 'PLN',
      scheme: 'internal',
      status: 'ACSC',
      statusReason: null,
      description: 'Savings',
      returned: null,
    });
    expect(payment.acceptedAt).toBe(payment.settledAt);
    expect(payment.endToEndId).toMatch(/^SB[0-9a-f]{32}$/);
    expect(payment.transactionIds).toHaveLength(2);
    const legs: Transaction[] = await Promise.all(payment.transactionIds.map((id) => transaction(user, id)));
    const debit = legs.find((leg) => leg.amount < 0) as Transaction;
    const credit = legs.find((leg) => leg.amount > 0) as Transaction;
    expect(debit).toMatchObject({
      accountId: from,
      amount: -30_00,
      status: 'posted',
      category: 'transfer',
      paymentId: payment.id,
    });
    expect(credit).toMatchObject({ accountId: to, amount: 30_00, status: 'posted', category: 'transfer', paymentId: payment.id });
    expect(debit.counterpartTransactionId).toBe(credit.id);
    expect(credit.counterpartTransactionId).toBe(debit.id);
    expect(await account(user, from)).toMatchObject({ balance: 70_00, availableBalance: 70_00 });
    expect(await account(user, to)).toMatchObject({ balance: 30_00 });
    expectConsistent(await ledgerOf(app, from));
    expectConsistent(await ledgerOf(app, to));
    const { rows } = await app.db.query<{ type: string }>(
      `select type from events where user_id = $1 and (payload->'payment'->>'id' = $2 or payload->'transaction'->>'paymentId' = $2)
        order by seq`,
      [user.id, payment.id],
    );
    expect(rows.map((row) => row.type).sort()).toEqual(['payment.created', 'transaction.created', 'transaction.created']);
  });

  it('the answer and the events are what is read back: the payment, each leg with its balances (one statement)', async () => {
    const user = await app.createUser();
    const from = await openAccount(app, user, 'Main');
    const to = await openAccount(app, user, 'Savings pot');
    expect((await simulate(app, user, { accountId: from, amount: 100_00 })).status).toBe(201);
    const res = await pay(
      user,
      { fromAccountId: from, to: { accountId: to }, amount: 12_34, description: 'Pot' },
      'one-statement',
    );
    expect(res.status).toBe(201);
    const payment = res.body.data;
    const read = (await app.call('GET', `/v1/payments/${payment.id}`, { token: user.accessToken })).body.data;
    expect(payment).toEqual(read);
    const [debitId, creditId] = payment.transactionIds as [string, string];
    const debit = await transaction(user, debitId);
    const credit = await transaction(user, creditId);
    expect(debit).toMatchObject({ amount: -12_34, date: payment.acceptedAt, postedAt: payment.acceptedAt });
    expect(debit.raw).toMatchObject({ counterparty: { name: 'Savings pot' } });
    expect(credit.raw).toMatchObject({ counterparty: { name: 'Main' } });
    const { rows } = await app.db.query<{ type: string; payload: Record<string, unknown> }>(
      `select type, payload from events where user_id = $1 and (payload->'payment'->>'id' = $2 or payload->'transaction'->>'paymentId' = $2)
        order by txid, seq`,
      [user.id, payment.id],
    );
    expect(rows.map((row) => row.type)).toEqual(['transaction.created', 'transaction.created', 'payment.created']);
    expect(rows[2]?.payload).toEqual({ payment: read });
    const legEvents = Object.fromEntries(
      rows.slice(0, 2).map((row) => [(row.payload.transaction as { id: string }).id, row.payload]),
    );
    expect(legEvents[debitId]).toEqual({
      transaction: debit,
      balances: { balance: 100_00 - 12_34, availableBalance: 100_00 - 12_34 },
    });
    expect(legEvents[creditId]).toEqual({ transaction: credit, balances: { balance: 12_34, availableBalance: 12_34 } });
  });

  it('insufficient available funds: created as RJCT/AM04 (201), nothing booked, no negative balance', async () => {
    const { user, from, to } = await twoAccounts(10_00);
    expect((await simulate(app, user, { accountId: from, amount: -6_00, status: 'pending' })).status).toBe(201);
    const res = await pay(user, { fromAccountId: from, to: { accountId: to }, amount: 5_00 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'RJCT', statusReason: { code: 'AM04' }, acceptedAt: null, transactionIds: [] });
    expect(await account(user, from)).toMatchObject({ balance: 10_00, availableBalance: 4_00 });
    expect(await account(user, to)).toMatchObject({ balance: 0 });
  });

  it('a burst of 30 payments against funds for 10: exactly 10 accepted, the balance never below 0', async () => {
    const { user, from, to } = await twoAccounts(100_00);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        pay(user, { fromAccountId: from, to: { accountId: to }, amount: 10_00 }, `burst-${i}`),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
    const statuses = results.map((r) => r.body.data.status);
    expect(statuses.filter((s) => s === 'ACSC')).toHaveLength(10);
    expect(statuses.filter((s) => s === 'RJCT')).toHaveLength(20);
    expect(await account(user, from)).toMatchObject({ balance: 0, availableBalance: 0 });
    expect(await account(user, to)).toMatchObject({ balance: 100_00 });
    expectConsistent(await ledgerOf(app, from));
  });

  it('transfers both ways between two accounts at once never deadlock and add up', async () => {
    const user = await app.createUser();
    const a = await openAccount(app, user);
    const b = await openAccount(app, user);
    expect((await simulate(app, user, { accountId: a, amount: 50_00 })).status).toBe(201);
    expect((await simulate(app, user, { accountId: b, amount: 50_00 })).status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        pay(
          user,
          i % 2
            ? { fromAccountId: a, to: { accountId: b }, amount: 1_00 }
            : { fromAccountId: b, to: { accountId: a }, amount: 2_00 },
        ),
      ),
    );
    expect(results.map((r) => r.body.data?.status)).toEqual(Array(40).fill('ACSC'));
    // 20 × 1.00 from a to b, 20 × 2.00 from b to a.
    expect(await account(user, a)).toMatchObject({ balance: 70_00 });
    expect(await account(user, b)).toMatchObject({ balance: 30_00 });
    expectConsistent(await ledgerOf(app, a));
    expectConsistent(await ledgerOf(app, b));
  });

  it('a world reset takes its payments with it', async () => {
    const { user, from, to } = await twoAccounts();
    expect((await pay(user, { fromAccountId: from, to: { accountId: to }, amount: 1_00 })).status).toBe(201);
    const reset = await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    const list = await app.call<Output['payments']['listPayments']>('GET', '/v1/payments', { token: user.accessToken });
    expect(list.body.meta.total).toBe(0);
  });

  it('refuses what cannot be a payment, creating nothing', async () => {
    const { user, from, to } = await twoAccounts();
    const other = await app.createUser();
    const foreign = await openAccount(app, other);
    const eur = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Euro', currency: 'EUR' } });
    expect(eur.status).toBe(201);
    const cases: [Record<string, unknown>, [number, string, string | undefined]][] = [
      [{ fromAccountId: from, to: { accountId: from }, amount: 1 }, [400, 'VALIDATION_ERROR', 'to.accountId']],
      [{ fromAccountId: from, to: { accountId: to }, amount: 0 }, [400, 'VALIDATION_ERROR', 'amount']],
      [{ fromAccountId: from, to: { accountId: to }, amount: 1.5 }, [400, 'VALIDATION_ERROR', 'amount']],
      [{ fromAccountId: from, to: { accountId: to }, amount: 10 ** 12 + 1 }, [400, 'VALIDATION_ERROR', 'amount']],
      [{ fromAccountId: from, to: { accountId: to }, amount: 1, currency: 'EUR' }, [400, 'VALIDATION_ERROR', 'currency']],
      [{ fromAccountId: from, to: { accountId: to }, amount: 1, scheme: 'elixir' }, [400, 'VALIDATION_ERROR', 'scheme']],
      [{ fromAccountId: from, to: { accountId: foreign }, amount: 1 }, [404, 'NOT_FOUND', undefined]],
      [{ fromAccountId: foreign, to: { accountId: to }, amount: 1 }, [404, 'NOT_FOUND', undefined]],
      [
        { fromAccountId: from, to: { accountId: to }, amount: 1, description: 'x'.repeat(141) },
        [400, 'VALIDATION_ERROR', 'description'],
      ],
    ];
    for (const [body, expected] of cases) expectRefusal(await pay(user, body), expected, JSON.stringify(body));
    const list = await app.call<Output['payments']['listPayments']>('GET', '/v1/payments', { token: user.accessToken });
    expect(list.body.meta.total).toBe(0);
    expect(await account(user, from)).toMatchObject({ balance: 100_00 });
  });

  it('across currencies: the credit at the world’s rate less the 0.5 % spread, both amounts on the credit leg', async () => {
    const user = await app.createUser();
    const from = await openAccount(app, user);
    const eur = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Euro', currency: 'EUR' } });
    expect((await simulate(app, user, { accountId: from, amount: 500_00 })).status).toBe(201);
    // Pinned for the world's today and the next day, so a run that crosses midnight meets the same rate.
    const now = Date.parse((await app.call('GET', '/v1/clock', { token: user.accessToken })).body.data.now as string);
    for (const at of [now, now + 86_400_000]) {
      const date = new Date(at).toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });
      const pin = await app.call('PUT', '/v1/fx/rates', {
        token: user.accessToken,
        body: { date, base: 'PLN', quote: 'EUR', rate: '0.25' },
      });
      expect(pin.status, JSON.stringify(pin.body)).toBeLessThan(300);
    }
    const res = await pay(user, { fromAccountId: from, to: { accountId: eur.body.data.id }, amount: 100_00 });
    expect(res.body.data, JSON.stringify(res.body)).toMatchObject({ status: 'ACSC', currency: 'PLN', amount: 100_00 });
    const legs = await Promise.all(res.body.data.transactionIds.map((id) => transaction(user, id)));
    // 100.00 PLN × 0.25 × (1 − 0.005) = 24.875 EUR, rounded half away from zero once: 24.88.
    expect(legs.find((leg) => leg.amount < 0)).toMatchObject({ amount: -100_00, currency: 'PLN' });
    expect(legs.find((leg) => leg.amount > 0)).toMatchObject({
      amount: 24_88,
      currency: 'EUR',
      originalAmount: 100_00,
      originalCurrency: 'PLN',
      exchangeRate: '0.2487500000',
    });
    expect(await account(user, eur.body.data.id)).toMatchObject({ balance: 24_88 });
    expect(await account(user, from)).toMatchObject({ balance: 400_00 });
  });

  it('refuses a transfer out of or into a closed account (409), creating nothing', async () => {
    const { user, from, to } = await twoAccounts(0);
    const closed = await openAccount(app, user, 'To close');
    const name = 'To close';
    expect(
      (
        await app.call('POST', `/v1/accounts/${closed}/close`, {
          token: user.accessToken,
          body: { name, password: user.password },
        })
      ).status,
    ).toBe(200);
    expectRefusal(await pay(user, { fromAccountId: closed, to: { accountId: to }, amount: 1 }), [
      409,
      'ACCOUNT_CLOSED',
      undefined,
    ]);
    expectRefusal(await pay(user, { fromAccountId: from, to: { accountId: closed }, amount: 1 }), [
      409,
      'ACCOUNT_CLOSED',
      undefined,
    ]);
  });
});

describe('Idempotency-Key', () => {
  it('same key, same body → the same payment (200), booked once; another body → 409', async () => {
    const { user, from, to } = await twoAccounts();
    const body = { fromAccountId: from, to: { accountId: to }, amount: 12_00, description: 'Once' };
    const first = await pay(user, body, 'key-1');
    expect(first.status).toBe(201);
    const again = await pay(user, body, 'key-1');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    // Naming the defaults (the account's currency) is the same request.
    expect((await pay(user, { ...body, currency: 'PLN' }, 'key-1')).status).toBe(200);
    expectRefusal(await pay(user, { ...body, amount: 13_00 }, 'key-1'), [409, 'IDEMPOTENCY_CONFLICT', undefined]);
    expectRefusal(await pay(user, { ...body, description: 'Twice' }, 'key-1'), [409, 'IDEMPOTENCY_CONFLICT', undefined]);
    expect(await account(user, from)).toMatchObject({ balance: 88_00 });
    // A key is the user's own: another user's same key makes another payment.
    const second = await twoAccounts();
    const theirs = await pay(second.user, { ...body, fromAccountId: second.from, to: { accountId: second.to } }, 'key-1');
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(first.body.data.id);
  });

  it('identical requests racing with one key make one payment', async () => {
    const { user, from, to } = await twoAccounts();
    const body = { fromAccountId: from, to: { accountId: to }, amount: 7_00 };
    const results = await Promise.all(Array.from({ length: 8 }, () => pay(user, body, 'race')));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await account(user, from)).toMatchObject({ balance: 93_00 });
  });

  it('a malformed key is 400 and creates nothing', async () => {
    const { user, from, to } = await twoAccounts();
    const res = await pay(user, { fromAccountId: from, to: { accountId: to }, amount: 1 }, 'x'.repeat(256));
    expectRefusal(res, [400, 'VALIDATION_ERROR', 'Idempotency-Key']);
    expect(await account(user, from)).toMatchObject({ balance: 100_00 });
  });
});

describe('reading payments', () => {
  it('GET /v1/payments lists newest first with filters; GET /v1/payments/:id; another user’s is 404', async () => {
    const { user, from, to } = await twoAccounts(10_00);
    const ok = (await pay(user, { fromAccountId: from, to: { accountId: to }, amount: 4_00 })).body.data;
    const rejected = (await pay(user, { fromAccountId: from, to: { accountId: to }, amount: 40_00 })).body.data;
    const list = await app.call<Output['payments']['listPayments']>('GET', '/v1/payments', { token: user.accessToken });
    expect(list.body.data.map((p) => p.id)).toEqual([rejected.id, ok.id]);
    expect(list.body.meta).toMatchObject({ total: 2, page: 1, hasMore: false });
    const onlyRejected = await app.call<Output['payments']['listPayments']>('GET', '/v1/payments?status=RJCT', {
      token: user.accessToken,
    });
    expect(onlyRejected.body.data.map((p) => p.id)).toEqual([rejected.id]);
    const byAccount = await app.call<Output['payments']['listPayments']>(`GET`, `/v1/payments?accountId=${to}&limit=1`, {
      token: user.accessToken,
    });
    expect(byAccount.body.meta).toMatchObject({ total: 2, hasMore: true });
    const one = await app.call<Output['payments']['getPayment']>('GET', `/v1/payments/${ok.id}`, { token: user.accessToken });
    expect(one.body.data).toEqual(ok);
    const stranger = await app.createUser();
    expectRefusal(await app.call('GET', `/v1/payments/${ok.id}`, { token: stranger.accessToken }), [404, 'NOT_FOUND', undefined]);
    expectRefusal(await app.call('GET', '/v1/payments?status=DONE', { token: user.accessToken }), [
      400,
      'VALIDATION_ERROR',
      'status',
    ]);
  });
});
