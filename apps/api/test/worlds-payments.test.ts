/**
 * Payments in disposable worlds (docs/concepts/disposable-worlds.md, docs/concepts/payments.md), over
 * real HTTP against real PostgreSQL: a snapshot keeps the world's payments with their holds and legs,
 * a fork copies them (new ids, links mapped, instants shifted) so that a payment waiting for its
 * Elixir session clears in the child on the child's clock only, a settled transfer keeps both legs
 * linked, an Idempotency-Key still answers the copied payment, returns (due and booked) keep their
 * links, a payment file comes along with its payments, a restore brings payments back, and a snapshot
 * racing the parent's settlement is one consistent instant.
 *
 * Dates are in June of next year, as in payments-clearing.test.ts: a Friday after Elixir's last
 * cut-off, so the payment waits for Monday's 09:30 session (Warsaw on CEST).
 */
import { ibanOf } from '@sandbank/core';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE, pain001 } from '../../../packages/core/test/payment-files/fixtures.ts';
import { ensureXmllint, localPath, xmllintXpath } from '../../../packages/core/test/payment-files/xmllint.ts';
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

describe('returns in a fork', () => {
  const RETURN_1D = 'PL13999000250000000000000301';

  it('a settled payment’s return due after the snapshot comes back in the child, and one already returned stays linked', async () => {
    const user = await app.createUser();
    const main = await openAccount(app, user, 'Main');
    expect((await simulate(app, user, { accountId: main, amount: 1_000_00 })).status).toBe(201);
    await advanceTo(user, warsaw(friday, '10:00'));
    const instant = { fromAccountId: main, to: { iban: RETURN_1D, name: 'Closed' }, scheme: 'express_elixir' };
    const back = await pay(user, { ...instant, amount: 30_00, description: 'Comes back' });
    expect(back.body.data).toMatchObject({ status: 'ACSC', returned: null });
    const simulated = await pay(user, { ...instant, amount: 20_00, description: 'Came back' });
    const returned = await app.call('POST', `/v1/simulations/payments/${simulated.body.data.id}/return`, {
      ...token(user),
      body: { reasonCode: 'MD07' },
    });
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    const child = await fork(user, (await takeSnapshot(user, 'returns')).id);

    const already = await paymentNamed(child, 'Came back');
    expect(already.payment).toMatchObject({ status: 'ACSC', returned: { reason: { code: 'MD07' } } });
    const [debit, credit] = already.legs;
    expect(credit).toMatchObject({ amount: 20_00, reversalOf: debit?.id, paymentId: already.payment.id });
    expect(credit?.externalTxnId).toBe(`ret_${already.payment.id}`);

    expect((await paymentNamed(child, 'Comes back')).payment.returned).toBeNull();
    await advanceTo(child, warsaw(friday.plus({ days: 1 }), '11:00'));
    const comesBack = await paymentNamed(child, 'Comes back');
    expect(comesBack.payment).toMatchObject({ status: 'ACSC', returned: { reason: { code: 'AC04' } } });
    expect(comesBack.legs[1]).toMatchObject({
      amount: 30_00,
      reversalOf: comesBack.legs[0]?.id,
      paymentId: comesBack.payment.id,
    });
    expect(named(await accountsOf(child), 'Main')).toMatchObject({ balance: 1_000_00, heldAmount: 0 });
    expectConsistent(await ledgerOf(app, named(await accountsOf(child), 'Main').id), { events: false });
    // The parent's return is still to come.
    expect((await paymentNamed(user, 'Comes back')).payment.returned).toBeNull();
  });
});

describe('payment files in a fork', () => {
  beforeAll(() => ensureXmllint());

  it('the child has the file: its payments in the file’s order, its status report, and its MsgId taken', async () => {
    const user = await app.createUser();
    const pln = await openAccount(app, user, 'PLN');
    const eur = (await app.call('POST', '/v1/accounts', { ...token(user), body: { name: 'EUR', currency: 'EUR' } })).body.data.id;
    expect((await simulate(app, user, { accountId: pln, amount: 10_000_00 })).status).toBe(201);
    expect((await simulate(app, user, { accountId: eur, amount: 1_000_00, currency: 'EUR' })).status).toBe(201);
    await advanceTo(user, warsaw(friday, '16:00'));
    const day = friday.toISODate() as string;
    const [plnBlock, eurBlock] = EXAMPLE.blocks;
    /** The guide's file, paid from these accounts (a child's accounts have IBANs of their own). */
    const fileOf = (from: { pln: string; eur: string }) =>
      pain001({
        ...EXAMPLE,
        blocks: [
          { ...plnBlock!, debtorIban: ibanOf(from.pln), date: day },
          { ...eurBlock!, debtorIban: ibanOf(from.eur), date: day },
        ],
      });
    const upload = (who: { accessToken: string }, xml: string) =>
      fetch(`${app.url}/v1/payment-files`, {
        method: 'POST',
        headers: { 'content-type': 'application/xml', authorization: `Bearer ${who.accessToken}` },
        body: xml,
      });
    expect((await upload(user, fileOf({ pln, eur }))).status).toBe(201);
    const child = await fork(user, (await takeSnapshot(user, 'file')).id);

    const { rows } = await app.db.query<{ file: string; end_to_end_id: string }>(
      `select f.id as file, p.end_to_end_id from payment_files f join payments p on p.payment_file_id = f.id
        where f.user_id = $1 order by p.payment_file_position`,
      [child.world.id],
    );
    expect(rows.map((row) => row.end_to_end_id)).toEqual(['INV-2026-0415', 'INV-2026-0416', 'PO-88231']);
    const report = await fetch(`${app.url}/v1/payment-files/${rows[0]!.file}/status-report`, {
      headers: { authorization: `Bearer ${child.accessToken}` },
    });
    expect(report.status).toBe(200);
    const text = await report.text();
    const group = (field: string) =>
      xmllintXpath(text, `string(/${localPath(`Document/CstmrPmtStsRpt/OrgnlGrpInfAndSts/${field}`)})`);
    expect(group('OrgnlMsgId')).toBe('ACME-2026-11-30-001');
    expect(group('GrpSts')).toBe('ACTC');
    // A bank refuses a file it already has: the child has it too.
    const accounts = await accountsOf(child);
    const again = await upload(child, fileOf({ pln: named(accounts, 'PLN').id, eur: named(accounts, 'EUR').id }));
    expect(again.status, await again.text()).toBe(409);
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
