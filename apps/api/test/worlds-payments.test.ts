/**
 * Payments in disposable worlds (docs/concepts/disposable-worlds.md, docs/concepts/payments.md), over
 * real HTTP against real PostgreSQL: a snapshot keeps the world's payments with their holds and legs,
 * a fork copies them (new ids, links mapped, instants shifted) so that a payment waiting for its
 * Elixir session clears in the child on the child's clock only, a settled transfer keeps both legs
 * linked, an Idempotency-Key still answers the copied payment, and a restore brings payments back.
 *
 * Dates are in June of next year, as in payments-clearing.test.ts: a Friday after Elixir's last
 * cut-off, so the payment waits for Monday's 09:30 session (Warsaw on CEST).
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Output, startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Payment = Output['payments']['getPayment']['data'];
type Transaction = Output['transactions']['getTransaction']['data'];
type Account = Output['accounts']['getAccount']['data'];

const YEAR = new Date().getUTCFullYear() + 1;
const JUNE_8 = DateTime.fromObject({ year: YEAR, month: 6, day: 8 }, { zone: 'Europe/Warsaw' }).set({ weekday: 5 });
/** The second Friday of June, next year. */
const friday = JUNE_8.day < 8 ? JUNE_8.plus({ weeks: 1 }) : JUNE_8;
const monday = friday.plus({ days: 3 });
const warsaw = (day: DateTime, time: string) => {
  const [hour, minute] = time.split(':').map(Number);
  return day.set({ hour, minute, second: 0, millisecond: 0 }).toUTC().toISO() as string;
};
const IBAN = 'PL61109010140000071219812874';

const token = (user: Pick<TestUser, 'accessToken'>) => ({ token: user.accessToken });
const advanceTo = async (user: Pick<TestUser, 'accessToken'>, to: string) => {
  const res = await app.call('POST', '/v1/clock/advance', { ...token(user), body: { to } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { fired: { payments: number } };
};
const pay = async (user: Pick<TestUser, 'accessToken'>, body: Record<string, unknown>, key?: string) =>
  app.call<Output['payments']['createPayment']>('POST', '/v1/payments', {
    ...token(user),
    body,
    ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
  });
const payments = async (user: Pick<TestUser, 'accessToken'>): Promise<Payment[]> => {
  const res = await app.call<Output['payments']['listPayments']>('GET', '/v1/payments?limit=100', token(user));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const transaction = async (user: Pick<TestUser, 'accessToken'>, id: string): Promise<Transaction> =>
  (await app.call('GET', `/v1/transactions/${id}`, token(user))).body.data;
const accountsOf = async (user: Pick<TestUser, 'accessToken'>): Promise<Account[]> =>
  (await app.call<Output['accounts']['listAccounts']>('GET', '/v1/accounts', token(user))).body.data;
const named = (accounts: Account[], name: string) => {
  const found = accounts.find((account) => account.name === name);
  if (!found) throw new Error(`no account ${name}`);
  return found;
};
const takeSnapshot = async (user: TestUser, name: string) => {
  const res = await app.call<Output['worlds']['takeSnapshot']>('POST', '/v1/sandbox/snapshots', {
    ...token(user),
    body: { name },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const fork = async (user: TestUser, snapshotId: string) => {
  const res = await app.call('POST', '/v1/worlds', { ...token(user), body: { snapshotId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { accessToken: string; world: { id: string } };
};

/** A world on Friday after Elixir's cut-off: an Elixir payment waiting for Monday (ACTC, its hold) and a settled transfer. */
async function worldWithPayments() {
  const user = await app.createUser();
  const main = await openAccount(app, user, 'Main');
  const savings = await openAccount(app, user, 'Savings');
  expect((await simulate(app, user, { accountId: main, amount: 1_000_00 })).status).toBe(201);
  await advanceTo(user, warsaw(friday, '15:45'));
  const waiting = await pay(
    user,
    { fromAccountId: main, to: { iban: IBAN, name: 'Jan Kowalski' }, amount: 120_00, description: 'Rent' },
    'rent',
  );
  expect(waiting.status, JSON.stringify(waiting.body)).toBe(201);
  expect(waiting.body.data).toMatchObject({ scheme: 'elixir', status: 'ACTC' });
  const transfer = await pay(user, { fromAccountId: main, to: { accountId: savings }, amount: 50_00, description: 'Savings' });
  expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
  expect(transfer.body.data).toMatchObject({ scheme: 'internal', status: 'ACSC' });
  return { user, main, savings, waiting: waiting.body.data, transfer: transfer.body.data };
}

/** The world's payment of `description`, and its transactions. */
async function paymentNamed(user: Pick<TestUser, 'accessToken'>, description: string) {
  const found = (await payments(user)).filter((payment) => payment.description === description);
  expect(found).toHaveLength(1);
  const payment = found[0] as Payment;
  return { payment, legs: await Promise.all(payment.transactionIds.map((id) => transaction(user, id))) };
}

/** The transfer's two legs, each its payment's and pointing at the other. */
function expectLinkedTransfer({ payment, legs }: Awaited<ReturnType<typeof paymentNamed>>) {
  expect(payment).toMatchObject({ status: 'ACSC', amount: 50_00 });
  expect(legs).toHaveLength(2);
  const [debit, credit] = [legs.find((leg) => leg.amount < 0), legs.find((leg) => leg.amount > 0)];
  expect(debit).toMatchObject({ amount: -50_00, status: 'posted', paymentId: payment.id, counterpartTransactionId: credit?.id });
  expect(credit).toMatchObject({ amount: 50_00, status: 'posted', paymentId: payment.id, counterpartTransactionId: debit?.id });
  expect(debit?.externalTxnId).toBe(`pay_${payment.id}`);
}

describe('a fork keeps the parent’s payments', () => {
  let parent: Awaited<ReturnType<typeof worldWithPayments>>;
  let child: { accessToken: string; world: { id: string } };
  beforeAll(async () => {
    parent = await worldWithPayments();
    const snap = await takeSnapshot(parent.user, 'payments');
    child = await fork(parent.user, snap.id);
  });

  it('the waiting payment is the child’s own, with its hold', async () => {
    const { payment, legs } = await paymentNamed(child, 'Rent');
    expect(payment.id).not.toBe(parent.waiting.id);
    expect(payment).toMatchObject({
      status: 'ACTC',
      scheme: 'elixir',
      amount: 120_00,
      to: { iban: IBAN, name: 'Jan Kowalski' },
      endToEndId: parent.waiting.endToEndId,
      settledAt: null,
    });
    expect(legs).toHaveLength(1);
    expect(legs[0]).toMatchObject({
      amount: -120_00,
      status: 'pending',
      paymentId: payment.id,
      externalTxnId: `pay_${payment.id}`,
    });
    expect(named(await accountsOf(child), 'Main')).toMatchObject({
      balance: 950_00,
      heldAmount: 120_00,
      availableBalance: 830_00,
    });
  });

  it('a settled transfer keeps both legs linked', async () => {
    const copied = await paymentNamed(child, 'Savings');
    expect(copied.payment.id).not.toBe(parent.transfer.id);
    expectLinkedTransfer(copied);
    const savings = named(await accountsOf(child), 'Savings');
    expect(copied.payment.to).toEqual({ accountId: savings.id });
  });

  it('its Idempotency-Key answers the copied payment in the child', async () => {
    const { payment } = await paymentNamed(child, 'Rent');
    const main = named(await accountsOf(child), 'Main');
    const again = await pay(
      child,
      { fromAccountId: main.id, to: { iban: IBAN, name: 'Jan Kowalski' }, amount: 120_00, description: 'Rent' },
      'rent',
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.id).toBe(payment.id);
  });

  it('the child’s session clears it there only: the hold posts in the child, the parent still waits', async () => {
    expect((await advanceTo(child, warsaw(monday, '09:29'))).fired.payments).toBe(0);
    expect((await advanceTo(child, warsaw(monday, '09:30'))).fired.payments).toBe(1);
    expect((await paymentNamed(child, 'Rent')).payment.status).toBe('ACSP');
    await advanceTo(child, warsaw(monday, '10:30'));
    const { payment, legs } = await paymentNamed(child, 'Rent');
    expect(payment).toMatchObject({ status: 'ACSC', settledAt: new Date(warsaw(monday, '10:30')).toISOString() });
    expect(legs[0]).toMatchObject({ status: 'posted', amount: -120_00 });
    const main = named(await accountsOf(child), 'Main');
    expect(main).toMatchObject({ balance: 830_00, heldAmount: 0 });
    // No events were copied (the event log is not kept): the ledger's own invariants only.
    expectConsistent(await ledgerOf(app, main.id), { events: false });

    const inParent = await paymentNamed(parent.user, 'Rent');
    expect(inParent.payment).toMatchObject({ id: parent.waiting.id, status: 'ACTC' });
    expect(inParent.legs[0]).toMatchObject({ status: 'pending' });
    expect(named(await accountsOf(parent.user), 'Main')).toMatchObject({ balance: 950_00, heldAmount: 120_00 });
    expectConsistent(await ledgerOf(app, parent.main));
  });
});

describe('a restore brings the payments back', () => {
  it('as they were at the snapshot, with new ids; the restored payment clears again', async () => {
    const world = await worldWithPayments();
    const snap = await takeSnapshot(world.user, 'before Monday');
    // After the snapshot: the payment settles and another one is made.
    await advanceTo(world.user, warsaw(monday, '10:30'));
    const later = await pay(world.user, {
      fromAccountId: world.main,
      to: { iban: IBAN, name: 'Anna Nowak' },
      amount: 10_00,
      description: 'Later',
    });
    expect(later.status).toBe(201);
    expect((await paymentNamed(world.user, 'Rent')).payment.status).toBe('ACSC');

    const restored = await app.call('POST', '/v1/sandbox/restore', { ...token(world.user), body: { snapshotId: snap.id } });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    const after = await payments(world.user);
    expect(after.map((payment) => payment.description).sort()).toEqual(['Rent', 'Savings']);
    const rent = await paymentNamed(world.user, 'Rent');
    expect(rent.payment.id).not.toBe(world.waiting.id);
    expect(rent.payment.status).toBe('ACTC');
    expect(rent.legs[0]).toMatchObject({ status: 'pending', amount: -120_00, paymentId: rent.payment.id });
    expectLinkedTransfer(await paymentNamed(world.user, 'Savings'));
    const main = named(await accountsOf(world.user), 'Main');
    expect(main).toMatchObject({ balance: 950_00, heldAmount: 120_00 });

    // The restored clock is the snapshot's (Friday): Monday's session clears the restored payment.
    await advanceTo(world.user, warsaw(monday, '10:30'));
    const cleared = await paymentNamed(world.user, 'Rent');
    expect(cleared.payment.status).toBe('ACSC');
    expect(cleared.legs[0]).toMatchObject({ status: 'posted' });
    expect(named(await accountsOf(world.user), 'Main')).toMatchObject({ balance: 830_00, heldAmount: 0 });
    expectConsistent(await ledgerOf(app, main.id), { events: false });
  });
});

describe('a snapshot taken while the parent’s payment settles', () => {
  it('is one consistent instant: each copied payment agrees with its hold', async () => {
    for (let round = 0; round < 3; round += 1) {
      const world = await worldWithPayments();
      // The snapshot races the advance that moves the payment through its session and settlement.
      const [snap] = await Promise.all([
        takeSnapshot(world.user, `race ${round}`),
        advanceTo(world.user, warsaw(monday, '10:30')),
      ]);
      const child = await fork(world.user, snap.id);
      const { payment, legs } = await paymentNamed(child, 'Rent');
      const main = named(await accountsOf(child), 'Main');
      if (payment.status === 'ACSC') {
        expect(legs[0]).toMatchObject({ status: 'posted' });
        expect(main).toMatchObject({ balance: 830_00, heldAmount: 0 });
      } else {
        expect(['ACTC', 'ACSP']).toContain(payment.status);
        expect(legs[0]).toMatchObject({ status: 'pending' });
        expect(main).toMatchObject({ balance: 950_00, heldAmount: 120_00 });
        // Whatever the instant, the child finishes the payment on its own clock.
        await advanceTo(child, warsaw(monday.plus({ days: 1 }), '10:30'));
        expect((await paymentNamed(child, 'Rent')).payment.status).toBe('ACSC');
      }
      expectConsistent(await ledgerOf(app, main.id), { events: false });
    }
  });
});
