/**
 * Payments to an IBAN over real HTTP, on the world's clock (docs/concepts/payments.md): Elixir and
 * SEPA sessions with the hold through the lifecycle (ACTC → ACSP → ACSC, or RJCT with the hold
 * voided), cancel before the session, test IBANs per stage, returns as reversal credits, the
 * instant schemes, simulated rejections and returns, incoming payments, the calendar endpoint, and
 * an advance across a month firing sessions, settlements and schedules in due-time order.
 *
 * Dates are in June of next year (wholly in the future of every clock): the second Friday of June
 * is never followed by a Polish or TARGET holiday on Monday (Corpus Christi is a Thursday), and
 * Warsaw is on CEST (UTC+2) then.
 */
import { firePaymentStep } from '@sandbank/core';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Payment = Output['payments']['getPayment']['data'];
type Transaction = Output['transactions']['getTransaction']['data'];

const YEAR = new Date().getUTCFullYear() + 1;
/** The second Friday of June, next year. */
const FRIDAY = DateTime.fromObject({ year: YEAR, month: 6, day: 8 }, { zone: 'Europe/Warsaw' }).set({
  weekday: 5,
});
const friday = FRIDAY.day < 8 ? FRIDAY.plus({ weeks: 1 }) : FRIDAY;
const warsaw = (day: DateTime, time: string) => {
  const [hour, minute] = time.split(':').map(Number);
  return day.set({ hour, minute, second: 0, millisecond: 0 }).toUTC().toISO() as string;
};
const monday = friday.plus({ days: 3 });

const NORMAL_IBAN = 'PL61 1090 1014 0000 0712 1981 2874';
const TEST = {
  AC01_VALIDATION: 'PL78999000250000000000000101',
  AC04_SESSION: 'PL94999000250000000000000201',
  AC04_RETURN_1D: 'PL13999000250000000000000301',
};

async function worldAt(instant: string, currency = 'PLN', funds = 1_000_00) {
  const user = await app.createUser();
  const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Main', currency } });
  const accountId: string = res.body.data.id;
  expect((await simulate(app, user, { accountId, amount: funds })).status).toBe(201);
  expect((await advanceTo(user, instant)).status).toBe(200);
  return { user, accountId };
}

const advanceTo = (user: TestUser, to: string) =>
  app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { to } });
const pay = (user: TestUser, body: Record<string, unknown>) =>
  app.call<Output['payments']['createPayment']>('POST', '/v1/payments', { token: user.accessToken, body });
const payment = async (user: TestUser, id: string): Promise<Payment> =>
  (await app.call('GET', `/v1/payments/${id}`, { token: user.accessToken })).body.data;
const transaction = async (user: TestUser, id: string): Promise<Transaction> =>
  (await app.call('GET', `/v1/transactions/${id}`, { token: user.accessToken })).body.data;
const account = async (user: TestUser, id: string) =>
  (await app.call<Output['accounts']['getAccount']>('GET', `/v1/accounts/${id}`, { token: user.accessToken })).body.data;
const toIban = (iban: string, name = 'Jan Kowalski') => ({ iban, name });

async function paymentEvents(paymentId: string) {
  const { rows } = await app.db.query<{ type: string; status: string; previous: string | null }>(
    `select type, payload->'payment'->>'status' as status, payload->'previous'->>'status' as previous
       from events where payload->'payment'->>'id' = $1 order by txid, seq`,
    [paymentId],
  );
  return rows;
}

describe('Elixir: a Friday after the cut-off settles on Monday', () => {
  it('ACTC with a hold → ACSP at Monday 09:30 → ACSC at 10:30, the debit posted', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '15:45'));
    const res = await pay(user, { fromAccountId: accountId, to: toIban(NORMAL_IBAN), amount: 120_00, description: 'Rent' });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toMatchObject({
      scheme: 'elixir',
      status: 'ACTC',
      to: { iban: 'PL61109010140000071219812874', name: 'Jan Kowalski' },
      settledAt: null,
    });
    // Accepted at the world's now: 15:45 and the moments the test took since.
    expect(Date.parse(created.acceptedAt as string) - Date.parse(warsaw(friday, '15:45'))).toBeLessThan(60_000);
    expect(created.transactionIds).toHaveLength(1);
    const hold = await transaction(user, created.transactionIds[0] as string);
    expect(hold).toMatchObject({ amount: -120_00, status: 'pending', category: 'transfer', paymentId: created.id });
    expect(await account(user, accountId)).toMatchObject({ balance: 1_000_00, heldAmount: 120_00, availableBalance: 880_00 });

    // Saturday, Sunday and Monday before the session: still waiting.
    expect((await advanceTo(user, warsaw(monday, '09:29'))).status).toBe(200);
    expect((await payment(user, created.id)).status).toBe('ACTC');
    const session = await advanceTo(user, warsaw(monday, '09:30'));
    expect(session.body.data.fired.payments).toBe(1);
    expect((await payment(user, created.id)).status).toBe('ACSP');
    expect((await advanceTo(user, warsaw(monday, '10:30'))).status).toBe(200);
    const settled = await payment(user, created.id);
    expect(settled).toMatchObject({ status: 'ACSC', settledAt: new Date(warsaw(monday, '10:30')).toISOString() });
    expect(await transaction(user, hold.id)).toMatchObject({ status: 'posted', amount: -120_00, version: 2 });
    expect(await account(user, accountId)).toMatchObject({ balance: 880_00, heldAmount: 0 });
    expectConsistent(await ledgerOf(app, accountId));
    expect(await paymentEvents(created.id)).toEqual([
      { type: 'payment.created', status: 'ACTC', previous: null },
      { type: 'payment.updated', status: 'ACSP', previous: 'ACTC' },
      { type: 'payment.updated', status: 'ACSC', previous: 'ACSP' },
    ]);
  });

  it('cancel before the session: CANC, the hold voided; again: the same; after the session began: 409', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '15:45'));
    const a = (await pay(user, { fromAccountId: accountId, to: toIban(NORMAL_IBAN), amount: 50_00 })).body.data;
    const b = (await pay(user, { fromAccountId: accountId, to: toIban(NORMAL_IBAN), amount: 60_00 })).body.data;
    const cancel = (id: string) => app.call('POST', `/v1/payments/${id}/cancel`, { token: user.accessToken, body: {} });
    const cancelled = await cancel(a.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'CANC', statusReason: null });
    expect((await cancel(a.id)).body.data).toEqual(cancelled.body.data);
    expect(await transaction(user, a.transactionIds[0] as string)).toMatchObject({ status: 'voided' });
    expect(await account(user, accountId)).toMatchObject({ heldAmount: 60_00 });
    // A payment's hold moves with the payment only.
    const voidHold = await app.call('POST', `/v1/transactions/${b.transactionIds[0]}/void`, {
      token: user.accessToken,
      body: {},
    });
    expectRefusal(voidHold, [409, 'INVALID_TRANSITION', undefined]);
    expect((await advanceTo(user, warsaw(monday, '09:30'))).status).toBe(200);
    expectRefusal(await cancel(b.id), [409, 'INVALID_TRANSITION', undefined]);
    expect((await advanceTo(user, warsaw(monday, '12:00'))).status).toBe(200);
    expect((await payment(user, a.id)).status).toBe('CANC');
    expect((await payment(user, b.id)).status).toBe('ACSC');
    expect(await account(user, accountId)).toMatchObject({ balance: 940_00, heldAmount: 0 });
    expectConsistent(await ledgerOf(app, accountId));
  });
});

describe('test IBANs', () => {
  it('rejected at validation: 201 RJCT/AC01 at once, nothing held', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '10:00'));
    const res = await pay(user, { fromAccountId: accountId, to: toIban(TEST.AC01_VALIDATION), amount: 10_00 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'RJCT', statusReason: { code: 'AC01', message: 'Incorrect account number' } });
    expect(res.body.data.transactionIds).toEqual([]);
    expect(await account(user, accountId)).toMatchObject({ heldAmount: 0, balance: 1_000_00 });
  });

  it('rejected in the session: ACSP, then RJCT/AC04 when the results come, the hold voided', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '10:00'));
    const created = (await pay(user, { fromAccountId: accountId, to: toIban(TEST.AC04_SESSION), amount: 10_00 })).body.data;
    expect(created.status).toBe('ACTC');
    // 10:00 is after the 09:00 cut-off: the 13:30 session, results at 14:30.
    expect((await advanceTo(user, warsaw(friday, '14:30'))).status).toBe(200);
    const rejected = await payment(user, created.id);
    expect(rejected).toMatchObject({ status: 'RJCT', statusReason: { code: 'AC04' }, settledAt: null });
    expect(await transaction(user, created.transactionIds[0] as string)).toMatchObject({ status: 'voided' });
    expect(await account(user, accountId)).toMatchObject({ balance: 1_000_00, heldAmount: 0 });
    expect((await paymentEvents(created.id)).map((e) => e.status)).toEqual(['ACTC', 'ACSP', 'RJCT']);
  });

  it('returned a day after settlement: a reversal credit with the reason', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '10:00'));
    const created = (await pay(user, { fromAccountId: accountId, to: toIban(TEST.AC04_RETURN_1D), amount: 25_00 })).body.data;
    expect((await advanceTo(user, warsaw(friday, '14:30'))).status).toBe(200);
    expect(await payment(user, created.id)).toMatchObject({ status: 'ACSC', returned: null });
    expect(await account(user, accountId)).toMatchObject({ balance: 975_00 });
    expect((await advanceTo(user, warsaw(friday.plus({ days: 1 }), '14:29'))).status).toBe(200);
    expect(await payment(user, created.id)).toMatchObject({ returned: null });
    expect((await advanceTo(user, warsaw(friday.plus({ days: 1 }), '14:30'))).status).toBe(200);
    const returned = await payment(user, created.id);
    expect(returned).toMatchObject({ status: 'ACSC', returned: { reason: { code: 'AC04' } } });
    expect(returned.transactionIds).toHaveLength(2);
    const credit = await transaction(user, returned.transactionIds[1] as string);
    expect(credit).toMatchObject({
      amount: 25_00,
      status: 'posted',
      reversalOf: created.transactionIds[0],
      paymentId: created.id,
    });
    expect(await account(user, accountId)).toMatchObject({ balance: 1_000_00 });
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('a return due to an account closed since cannot land: the payment stays settled, the clock moves on', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '10:00'), 'PLN', 25_00);
    const paid = await pay(user, {
      fromAccountId: accountId,
      to: toIban(TEST.AC04_RETURN_1D),
      amount: 25_00,
      scheme: 'express_elixir',
    });
    expect(paid.body.data.status).toBe('ACSC');
    const close = await app.call('POST', `/v1/accounts/${accountId}/close`, {
      token: user.accessToken,
      body: { name: 'Main', password: user.password },
    });
    expect(close.status, JSON.stringify(close.body)).toBe(200);
    const later = await advanceTo(user, warsaw(friday.plus({ days: 2 }), '10:00'));
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(await payment(user, paid.body.data.id)).toMatchObject({ status: 'ACSC', returned: null });
    expect(await account(user, accountId)).toMatchObject({ status: 'closed', balance: 0 });
  });
});

describe('schemes', () => {
  it('express_elixir settles at once; above its limit RJCT/AM02; insufficient funds RJCT/AM04', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '22:00'), 'PLN', 200_000_00);
    const instant = await pay(user, {
      fromAccountId: accountId,
      to: toIban(NORMAL_IBAN),
      amount: 99_00,
      scheme: 'express_elixir',
    });
    expect(instant.body.data).toMatchObject({ status: 'ACSC', scheme: 'express_elixir' });
    expect(await transaction(user, instant.body.data.transactionIds[0] as string)).toMatchObject({ status: 'posted' });
    const over = await pay(user, {
      fromAccountId: accountId,
      to: toIban(NORMAL_IBAN),
      amount: 100_000_01,
      scheme: 'express_elixir',
    });
    expect(over.body.data).toMatchObject({ status: 'RJCT', statusReason: { code: 'AM02' } });
    const poor = await pay(user, { fromAccountId: accountId, to: toIban(NORMAL_IBAN), amount: 300_000_00 });
    expect(poor.body.data).toMatchObject({ status: 'RJCT', statusReason: { code: 'AM04' }, transactionIds: [] });
    expect(await account(user, accountId)).toMatchObject({ balance: 200_000_00 - 99_00, heldAmount: 0 });
  });

  it('sepa from a EUR account waits for the TARGET day; sepa_instant settles at once; wrong scheme for the currency is 422', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '16:00'), 'EUR');
    const sepa = (await pay(user, { fromAccountId: accountId, to: toIban('DE89370400440532013000'), amount: 10_00 })).body.data;
    expect(sepa).toMatchObject({ scheme: 'sepa', status: 'ACTC', currency: 'EUR' });
    const inst = await pay(user, {
      fromAccountId: accountId,
      to: toIban('DE89370400440532013000'),
      amount: 10_00,
      scheme: 'sepa_instant',
    });
    expect(inst.body.data).toMatchObject({ scheme: 'sepa_instant', status: 'ACSC' });
    const wrong = await pay(user, { fromAccountId: accountId, to: toIban(NORMAL_IBAN), amount: 1, scheme: 'elixir' });
    expectRefusal(wrong, [422, 'SCHEME_UNAVAILABLE', 'scheme']);
    // Friday after the 15:00 cut-off: Monday's cycle, settled Tuesday 09:00.
    expect((await advanceTo(user, warsaw(monday, '15:00'))).status).toBe(200);
    expect((await payment(user, sepa.id)).status).toBe('ACSP');
    expect((await advanceTo(user, warsaw(monday.plus({ days: 1 }), '09:00'))).status).toBe(200);
    expect((await payment(user, sepa.id)).status).toBe('ACSC');
    const usd = await worldAt(warsaw(friday, '16:00'), 'USD');
    expectRefusal(await pay(usd.user, { fromAccountId: usd.accountId, to: toIban(NORMAL_IBAN), amount: 1 }), [
      422,
      'SCHEME_UNAVAILABLE',
      'currency',
    ]);
  });

  it('an IBAN with wrong check digits is 400 and creates nothing', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '10:00'));
    const res = await pay(user, { fromAccountId: accountId, to: toIban('PL62109010140000071219812874'), amount: 1 });
    expectRefusal(res, [400, 'VALIDATION_ERROR', 'to.iban']);
    const list = await app.call<Output['payments']['listPayments']>('GET', '/v1/payments', { token: user.accessToken });
    expect(list.body.meta.total).toBe(0);
  });

  it('a requested execution date: the first session on that day', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '08:00'));
    const day = monday.plus({ days: 1 }).toISODate() as string;
    const later = (
      await pay(user, { fromAccountId: accountId, to: toIban(NORMAL_IBAN), amount: 1_00, requestedExecutionDate: day })
    ).body.data;
    expect(later).toMatchObject({ status: 'ACTC', requestedExecutionDate: day });
    expect((await advanceTo(user, warsaw(monday, '18:00'))).status).toBe(200);
    expect((await payment(user, later.id)).status).toBe('ACTC');
    expect((await advanceTo(user, warsaw(monday.plus({ days: 1 }), '09:30'))).status).toBe(200);
    expect((await payment(user, later.id)).status).toBe('ACSP');
    const past = friday.minus({ days: 1 }).toISODate();
    expectRefusal(
      await pay(user, { fromAccountId: accountId, to: toIban(NORMAL_IBAN), amount: 1, requestedExecutionDate: past }),
      [400, 'VALIDATION_ERROR', 'requestedExecutionDate'],
    );
  });
});

describe('simulated outcomes', () => {
  it('reject now (ACTC), return a settled one, refuse the impossible', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '10:00'));
    const a = (await pay(user, { fromAccountId: accountId, to: toIban(NORMAL_IBAN), amount: 10_00 })).body.data;
    const reject = (id: string, reasonCode: string) =>
      app.call('POST', `/v1/simulations/payments/${id}/reject`, { token: user.accessToken, body: { reasonCode } });
    const giveBack = (id: string, reasonCode: string) =>
      app.call('POST', `/v1/simulations/payments/${id}/return`, { token: user.accessToken, body: { reasonCode } });
    const rejected = await reject(a.id, 'AC06');
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'RJCT', statusReason: { code: 'AC06', message: 'Blocked account' } });
    expect((await reject(a.id, 'AC06')).body.data).toEqual(rejected.body.data);
    expectRefusal(await reject(a.id, 'AM05'), [409, 'INVALID_TRANSITION', undefined]);
    expectRefusal(await reject(a.id, 'nope'), [400, 'VALIDATION_ERROR', 'reasonCode']);
    const b = (await pay(user, { fromAccountId: accountId, to: toIban(NORMAL_IBAN), amount: 20_00, scheme: 'express_elixir' }))
      .body.data;
    expectRefusal(await reject(b.id, 'AC04'), [409, 'INVALID_TRANSITION', undefined]);
    const back = await giveBack(b.id, 'MD07');
    expect(back.body.data).toMatchObject({ status: 'ACSC', returned: { reason: { code: 'MD07' } } });
    expect((await giveBack(b.id, 'MD07')).body.data).toEqual(back.body.data);
    expectRefusal(await giveBack(a.id, 'MD07'), [409, 'INVALID_TRANSITION', undefined]);
    expect(await account(user, accountId)).toMatchObject({ balance: 1_000_00, heldAmount: 0 });
    expectConsistent(await ledgerOf(app, accountId));
  });
});

describe('incoming payments', () => {
  it('elixir: a pending credit that posts when the session settles; express_elixir: posted at once; the debtor on it', async () => {
    const { user, accountId } = await worldAt(warsaw(friday, '11:00'));
    const incoming = (body: Record<string, unknown>) =>
      app.call('POST', '/v1/simulations/incoming-payment', {
        token: user.accessToken,
        body: { accountId, debtorName: 'ACME sp. z o.o.', debtorIban: NORMAL_IBAN, description: 'Invoice 42', ...body },
      });
    const slow = await incoming({ amount: 500_00 });
    expect(slow.status).toBe(201);
    expect(slow.body.data.transaction).toMatchObject({
      status: 'pending',
      merchant: 'ACME sp. z o.o.',
      category: 'transfer',
      raw: { scheme: 'elixir', counterparty: { name: 'ACME sp. z o.o.', iban: 'PL61109010140000071219812874' } },
    });
    const fast = await incoming({ amount: 5_00, scheme: 'express_elixir' });
    expect(fast.body.data.transaction).toMatchObject({ status: 'posted' });
    expect(await account(user, accountId)).toMatchObject({ balance: 1_005_00 });
    // 11:00 is after the 09:00 cut-off: the 13:30 session, settled at 14:30.
    expect((await advanceTo(user, warsaw(friday, '14:29'))).status).toBe(200);
    expect(await transaction(user, slow.body.data.transaction.id)).toMatchObject({ status: 'pending' });
    expect((await advanceTo(user, warsaw(friday, '14:30'))).status).toBe(200);
    expect(await transaction(user, slow.body.data.transaction.id)).toMatchObject({ status: 'posted' });
    expect(await account(user, accountId)).toMatchObject({ balance: 1_505_00 });
    expectRefusal(await incoming({ amount: 1, scheme: 'sepa' }), [422, 'SCHEME_UNAVAILABLE', 'scheme']);
    expectRefusal(await incoming({ amount: 1, debtorIban: 'PL00' }), [400, 'VALIDATION_ERROR', 'debtorIban']);
  });
});

describe('the calendar', () => {
  it('GET /v1/payments/calendar lists sessions by scheme; defaults to the world’s today; bounded', async () => {
    const { user } = await worldAt(warsaw(friday, '10:00'));
    const get = (query: string) =>
      app.call<Output['payments']['getPaymentCalendar']>('GET', `/v1/payments/calendar${query}`, { token: user.accessToken });
    const from = friday.toISODate();
    const to = monday.toISODate();
    const elixir = await get(`?from=${from}&to=${to}&scheme=elixir`);
    expect(elixir.status).toBe(200);
    expect(elixir.body.data.map((s) => s.sessionAt)).toEqual(
      [
        warsaw(friday, '09:30'),
        warsaw(friday, '13:30'),
        warsaw(friday, '16:00'),
        warsaw(monday, '09:30'),
        warsaw(monday, '13:30'),
        warsaw(monday, '16:00'),
      ].map((iso) => new Date(iso).toISOString()),
    );
    expect(elixir.body.data[0]?.cutoffAt).toBe(new Date(warsaw(friday, '09:00')).toISOString());
    const both = await get('');
    expect(both.body.data[0]?.day).toBe(from);
    expect(new Set(both.body.data.map((s) => s.scheme))).toEqual(new Set(['elixir', 'sepa']));
    expectRefusal(await get(`?from=${to}&to=${from}`), [400, 'VALIDATION_ERROR', 'to']);
    expectRefusal(await get(`?from=${from}&to=${friday.plus({ days: 92 }).toISODate()}`), [422, 'PERIOD_TOO_LONG', 'to']);
    expectRefusal(await get('?scheme=express_elixir'), [400, 'VALIDATION_ERROR', 'scheme']);
  });
});

describe('an advance across a month', () => {
  it('fires sessions, settlements and schedules in due-time order, each effective at its own time', async () => {
    const start = friday.minus({ weeks: 2 });
    const { user, accountId } = await worldAt(warsaw(start, '08:00'), 'PLN', 10_000_00);
    const other = await openAccount(app, user);
    for (let i = 0; i < 3; i++) {
      expect((await pay(user, { fromAccountId: accountId, to: toIban(NORMAL_IBAN), amount: 1_00 + i })).status).toBe(201);
    }
    const daily = await app.call('POST', `/v1/accounts/${other}/schedules`, {
      token: user.accessToken,
      body: { amount: 7_00, description: 'Daily', rrule: 'FREQ=DAILY', startAt: warsaw(start, '09:00') },
    });
    expect(daily.status, JSON.stringify(daily.body)).toBe(201);
    expect((await simulate(app, user, { accountId, amount: -3_00, status: 'pending', settleAfter: 'PT2H' })).status).toBe(201);
    const res = await advanceTo(user, warsaw(start.plus({ months: 1 }), '08:00'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.fired).toMatchObject({ payments: 6, settled: 1 });
    expect(res.body.data.fired.scheduled).toBeGreaterThanOrEqual(28);
    const { rows } = await app.db.query<{ type: string; at: string }>(
      `select type, (extract(epoch from created_at) * 1000)::bigint::text as at from events
        where user_id = $1 and created_at > $2 order by txid, seq`,
      [user.id, warsaw(start, '08:59')],
    );
    // Committed in due-time order: every event's time is at or after the one before.
    const times = rows.map((row) => Number(row.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const types = rows.map((row) => row.type);
    expect(types.indexOf('payment.updated')).toBeLessThan(types.lastIndexOf('transaction.created'));
    // 09:00 the schedule's run, 09:30 the session (three ACSP), 10:00 the pending debit's settlement,
    // 10:30 the session's results (each payment's debit posts, then the payment is ACSC).
    const ordered = rows.slice(0, 6).map((row) => row.type);
    expect(ordered).toEqual([
      'transaction.created',
      'payment.updated',
      'payment.updated',
      'payment.updated',
      'transaction.updated',
      'transaction.updated',
    ]);
    expectConsistent(await ledgerOf(app, accountId));
  });
});

describe('a session settled set-wise', () => {
  /** Two accounts of one world, funded, at Monday 08:00, and the same payments made in the same order. */
  async function worldWithSession() {
    const { user, accountId: first } = await worldAt(warsaw(monday, '08:00'), 'PLN', 5_000_00);
    const second = await openAccount(app, user, 'Second');
    expect((await simulate(app, user, { accountId: second, amount: 2_000_00 })).status).toBe(201);
    const ibans = [NORMAL_IBAN, NORMAL_IBAN, TEST.AC04_SESSION, NORMAL_IBAN, TEST.AC04_RETURN_1D, NORMAL_IBAN, NORMAL_IBAN];
    for (const [n, iban] of ibans.entries()) {
      const res = await pay(user, { fromAccountId: n % 3 === 1 ? second : first, to: toIban(iban), amount: 10_00 + n * 1_01 });
      expect(res.body.data?.status, JSON.stringify(res.body)).toBe('ACTC');
    }
    const { rows } = await app.db.query<{ n: string }>(
      `select count(*) as n from events where user_id = $1 and (type like 'payment.%' or type like 'transaction.%')`,
      [user.id],
    );
    return { user, accounts: [first, second], eventsBefore: Number(rows[0]?.n) };
  }

  /** What the session wrote, with every id replaced by its first appearance's number (the worlds' ids differ). */
  async function sessionOf(world: { user: TestUser; accounts: string[]; eventsBefore: number }) {
    const ids = new Map<string, string>();
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|SB[0-9a-f]{32}/g;
    // The payments were made at each world's own now (its first minute after 08:00): only those instants differ.
    const made = new RegExp(`${warsaw(monday, '08:00').slice(0, 16)}:\\d\\d\\.\\d{3}Z`, 'g');
    const plain = (value: unknown) =>
      JSON.parse(
        JSON.stringify(value)
          .replace(made, 'made')
          .replace(uuid, (id) => {
            if (!ids.has(id)) ids.set(id, `#${ids.size}`);
            return ids.get(id) as string;
          }),
      );
    const events = await app.db.query(
      `select type, payload, created_at from events where user_id = $1 and (type like 'payment.%' or type like 'transaction.%')
        order by txid, seq offset $2`,
      [world.user.id, world.eventsBefore],
    );
    const rows = await app.db.query(
      `select status, amount, posted_at, version, posted_from_pending, settle_at, expire_at from transactions
        where user_id = $1 and payment_id is not null order by id`,
      [world.user.id],
    );
    const balances = await app.db.query(
      'select balance, held_amount, transaction_count from accounts where user_id = $1 order by id',
      [world.user.id],
    );
    const payments = await app.db.query(
      'select status, reason_code, due_at, settled_at, updated_at from payments where user_id = $1 order by id',
      [world.user.id],
    );
    return plain({ events: events.rows, transactions: rows.rows, accounts: balances.rows, payments: payments.rows });
  }

  it('writes what the steps one by one write: the same events in the same order, balances, holds and statuses', async () => {
    const until = new Date(warsaw(monday, '11:00'));
    const batched = await worldWithSession();
    expect((await advanceTo(batched.user, until.toISOString())).body.data.fired.payments).toBe(14);

    // The reference: each step in its own transaction, in due-time order, as the runner fired them before.
    const stepwise = await worldWithSession();
    for (;;) {
      const { rows } = await app.db.query<{ id: string }>(
        'select id from payments where user_id = $1 and due_at <= $2 order by due_at, id limit 1',
        [stepwise.user.id, until],
      );
      const next = rows[0];
      if (!next) break;
      const em = app.orm.em.fork();
      await em.transactional((tx) => firePaymentStep(tx, { userId: stepwise.user.id, paymentId: next.id, until }));
    }
    const expected = await sessionOf(stepwise);
    expect(expected.events.length).toBe(3 * 7);
    expect(await sessionOf(batched)).toEqual(expected);
    for (const accountId of batched.accounts) expectConsistent(await ledgerOf(app, accountId));
  });
});
