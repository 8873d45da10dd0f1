/**
 * Standing orders (docs/concepts/payments.md) over real HTTP on a real PostgreSQL: a scenario's
 * monthly rent to an IBAN over Elixir makes one payment per occurrence, dated at its due instant and
 * settling at the Elixir session after it; a month without funds is RJCT AM04 and the next still pays;
 * a repeated occurrence makes no second payment; export → apply keeps the standing order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScheduleOccurrence, sessionFor } from '@sandbank/core';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';
import { apply, comparable, exported } from './scenario-calls.ts';
import { worldCalls } from './world-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** A year wholly in the future of every clock here. */
const YEAR = new Date().getUTCFullYear() + 1;
const IBAN = 'PL61109010140000071219812874';
const { advance, runs, schedule } = worldCalls(() => app);

interface Payment {
  id: string;
  status: string;
  scheme: string;
  amount: number;
  statusReason: { code: string } | null;
  acceptedAt: string | null;
  settledAt: string | null;
  createdAt: string;
  description: string;
  to: { iban: string; name: string } | { accountId: string };
  transactionIds: string[];
}

const payments = async (user: TestUser): Promise<Payment[]> => {
  const res = await app.call('GET', '/v1/payments?limit=100', { token: user.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return [...res.body.data].reverse();
};

const rentScenario = (openingBalance: number) => ({
  version: 1,
  seed: 1,
  accounts: [
    {
      key: 'main',
      name: 'Konto',
      openingBalance,
      schedules: [
        {
          amount: -2_000_00,
          description: 'Rent',
          rrule: 'FREQ=MONTHLY;BYMONTHDAY=1',
          startAt: `${YEAR}-02-01T09:00:00+01:00`,
          payment: { to: { iban: IBAN, name: 'Jan Kowalski' }, scheme: 'elixir' },
        },
      ],
    },
  ],
});

async function worldWithRent(openingBalance: number) {
  const user = await app.createUser();
  const res = await apply(app, user, { scenario: rentScenario(openingBalance) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const accountId: string = res.body.data.accounts[0].id;
  const { rows } = await app.db.query<{ id: string }>('select id from schedules where user_id = $1', [user.id]);
  return { user, accountId, scheduleId: rows[0]?.id as string };
}

/** The 1st of the month at 09:00 Warsaw (CET in winter, CEST from the end of March). */
const dueAt = (month: number) =>
  DateTime.fromObject({ year: YEAR, month, day: 1, hour: 9 }, { zone: 'Europe/Warsaw' }).toUTC().toISO() as string;

describe('standing orders', () => {
  it('pays rent over Elixir each month at its due instant; a month without funds is RJCT AM04 and the next still pays', async () => {
    const { user, accountId, scheduleId } = await worldWithRent(4_500_00);
    const eventCount = async () =>
      Number((await app.db.query('select count(*) as n from events where user_id = $1', [user.id])).rows[0]?.n);
    const before = await eventCount();
    const res = await advance(user, { to: `${YEAR}-04-20T12:00:00Z` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Three runs; the advance counts every event it wrote, the rejected payment's payment.created too.
    expect(res.body.data.fired.scheduled).toBe(3);
    expect(res.body.data.events).toBe((await eventCount()) - before);

    const [feb, mar, apr, ...rest] = await payments(user);
    expect(rest).toEqual([]);
    for (const [payment, month] of [
      [feb, 2],
      [mar, 3],
    ] as const) {
      const due = new Date(dueAt(month));
      expect(payment).toMatchObject({
        status: 'ACSC',
        scheme: 'elixir',
        amount: 2_000_00,
        description: 'Rent',
        to: { iban: IBAN, name: 'Jan Kowalski' },
        acceptedAt: due.toISOString(),
        // Settled at the Elixir session after its due instant (the calendar's, not the day it was run).
        settledAt: sessionFor('elixir', due).settlesAt.toISOString(),
      });
    }
    // April: 500.00 left, rent 2,000.00: the payment is made and rejected, as at a bank.
    expect(apr).toMatchObject({ status: 'RJCT', statusReason: { code: 'AM04' }, acceptedAt: null, settledAt: null });
    expect(apr?.createdAt).toBe(dueAt(4));
    const recorded = (await runs(user, scheduleId)).reverse();
    expect(recorded.map((run) => [run.n, run.dueAt, run.failure?.code ?? null])).toEqual([
      [1, dueAt(2), null],
      [2, dueAt(3), null],
      [3, dueAt(4), 'AM04'],
    ]);
    expect(recorded[0]?.transactionId).toBeTruthy();

    // Money comes in; May's rent pays.
    expect((await simulate(app, user, { accountId, amount: 3_000_00 })).status).toBe(201);
    expect((await advance(user, { to: `${YEAR}-05-20T12:00:00Z` })).status).toBe(200);
    const may = (await payments(user))[3];
    expect(may).toMatchObject({ status: 'ACSC', acceptedAt: dueAt(5) });
    const ledger = await ledgerOf(app, accountId);
    // The scenario's opening balance has no event of its own (one scenario.applied for the apply).
    expectConsistent(ledger, { events: false });
    expect(ledger.balance).toBe(4_500_00 + 3_000_00 - 3 * 2_000_00);
  });

  it('makes one payment for an occurrence run twice: after a lost run record, and by two racing runners', async () => {
    const { user, scheduleId } = await worldWithRent(10_000_00);
    expect((await advance(user, { to: `${YEAR}-02-05T12:00:00Z` })).status).toBe(200);
    expect(await payments(user)).toHaveLength(1);

    // As if the run's record and the schedule's move were lost after the payment (a crash between them):
    // the occurrence runs again, and its Idempotency-Key answers the payment it already made.
    await app.db.query(`delete from schedule_runs where schedule_id = $1`, [scheduleId]);
    await app.db.query(`update schedules set next_run_at = $2, next_run_n = 1, state = 'active' where id = $1`, [
      scheduleId,
      dueAt(2),
    ]);
    const again = await app.orm.em
      .fork()
      .transactional((tx) => runScheduleOccurrence(tx, { scheduleId, dueAt: new Date(dueAt(2)) }));
    expect(again).toEqual({ kind: 'booked', events: 0 });
    expect(await payments(user)).toHaveLength(1);

    // Two workers at March's occurrence at once: the schedule's lock lets one run it, the other skips.
    await app.db.query(`update schedules set next_run_at = $2, next_run_n = 2 where id = $1`, [scheduleId, dueAt(3)]);
    const race = await Promise.all(
      [1, 2].map(() =>
        app.orm.em.fork().transactional((tx) => runScheduleOccurrence(tx, { scheduleId, dueAt: new Date(dueAt(3)) })),
      ),
    );
    expect(race.map((outcome) => outcome.kind).sort()).toEqual(['booked', 'skipped']);
    const made = await payments(user);
    expect(made.map((payment) => payment.acceptedAt)).toEqual([dueAt(2), dueAt(3)]);
  });

  it('exports the standing order and applies it back the same', async () => {
    const { user } = await worldWithRent(10_000_00);
    const document = await exported(app, user);
    expect(document.accounts[0].schedules).toMatchObject([
      { amount: -2_000_00, description: 'Rent', payment: { to: { iban: IBAN, name: 'Jan Kowalski' }, scheme: 'elixir' } },
    ]);
    const other = await app.createUser();
    const res = await apply(app, other, { scenario: document });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(comparable(await exported(app, other))).toEqual(comparable(document));
  });

  it('refuses a standing order that does not pay out', async () => {
    const user = await app.createUser();
    const scenario = rentScenario(0);
    (scenario.accounts[0]?.schedules[0] as { amount: number }).amount = 2_000_00;
    const res = await apply(app, user, { scenario });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('schedules.0.amount');
  });
});

describe('the tenant example', () => {
  it('applies: its rent is a standing order over Elixir, its saving one to the savings account', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const scenario = JSON.parse(readFileSync(path.join(root, 'examples/scenarios/tenant.json'), 'utf8'));
    const user = await app.createUser();
    const res = await apply(app, user, { scenario });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = await app.call('GET', `/v1/accounts/${res.body.data.accounts[0].id}/schedules`, { token: user.accessToken });
    expect(list.body.data).toMatchObject([
      { amount: -2_500_00, payment: { to: { iban: IBAN, name: 'Jan Kowalski' }, scheme: 'elixir' }, state: 'active' },
      { amount: -300_00, payment: { to: { accountId: res.body.data.accounts[1].id }, scheme: null }, state: 'active' },
    ]);
  });
});

describe('a standing order through the schedules API', () => {
  it('is created with its payment, refused without a valid IBAN, and a fork keeps it and pays from the child', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Main');
    expect((await simulate(app, user, { accountId, amount: 5_000_00 })).status).toBe(201);
    const body = {
      amount: -1_000_00,
      description: 'Garage',
      rrule: 'FREQ=MONTHLY;BYMONTHDAY=1',
      startAt: `${YEAR}-02-01T09:00:00+01:00`,
      payment: { to: { iban: 'PL61 1090 1014 0000 0712 1981 2874', name: 'Jan Kowalski' } },
    };
    const created = await schedule(user, accountId, body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.payment).toEqual({ to: { iban: IBAN, name: 'Jan Kowalski' }, scheme: null });
    const badIban = await schedule(user, accountId, { ...body, payment: { to: { iban: 'PL00 1234', name: 'X' } } });
    expect(badIban.status).toBe(400);
    const credit = await schedule(user, accountId, { ...body, amount: 1_000_00 });
    expect(credit.status).toBe(400);

    const snap = await app.call('POST', '/v1/sandbox/snapshots', { token: user.accessToken, body: { name: 'so' } });
    expect(snap.status, JSON.stringify(snap.body)).toBe(201);
    const forked = await app.call('POST', '/v1/worlds', { token: user.accessToken, body: { snapshotId: snap.body.data.id } });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const child = { accessToken: forked.body.data.accessToken as string } as TestUser;
    const accounts = await app.call('GET', '/v1/accounts', { token: child.accessToken });
    const childAccount: string = accounts.body.data[0].id;
    const schedules = await app.call('GET', `/v1/accounts/${childAccount}/schedules`, { token: child.accessToken });
    expect(schedules.body.data).toMatchObject([{ amount: -1_000_00, payment: { to: { iban: IBAN }, scheme: null } }]);
    expect((await advance(child, { to: `${YEAR}-02-10T12:00:00Z` })).status).toBe(200);
    // A fork shifts the world's instants by the time since the snapshot: the child's run is due at its own nextRunAt.
    const childDue: string = schedules.body.data[0].nextRunAt;
    expect(Date.parse(childDue) - Date.parse(dueAt(2))).toBeLessThan(60_000);
    expect(await payments(child)).toMatchObject([{ status: 'ACSC', scheme: 'elixir', amount: 1_000_00, acceptedAt: childDue }]);
    expect(await payments(user)).toEqual([]);
  });
});

describe('a standing order between own accounts', () => {
  const pinRate = async (user: TestUser, month: number) => {
    const pin = await app.call('PUT', '/v1/fx/rates', {
      token: user.accessToken,
      body: { date: `${YEAR}-${String(month).padStart(2, '0')}-01`, base: 'PLN', quote: 'EUR', rate: '0.25' },
    });
    expect(pin.status, JSON.stringify(pin.body)).toBeLessThan(300);
  };
  const balance = async (user: TestUser, accountId: string): Promise<number> =>
    (await app.call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken })).body.data.balance;

  it('transfers at each occurrence, across currencies at the rate less the spread; without funds RJCT AM04 and it goes on', async () => {
    const user = await app.createUser();
    const main = await openAccount(app, user, 'Main');
    const savings = await openAccount(app, user, 'Savings');
    const eurRes = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Euro', currency: 'EUR' } });
    const eur: string = eurRes.body.data.id;
    expect((await simulate(app, user, { accountId: main, amount: 2_500_00 })).status).toBe(201);
    for (const month of [2, 3, 4]) await pinRate(user, month);
    const toSavings = await schedule(user, main, {
      amount: -1_000_00,
      description: 'Saving',
      rrule: 'FREQ=MONTHLY;BYMONTHDAY=1',
      startAt: `${YEAR}-02-01T09:00:00+01:00`,
      payment: { to: { accountId: savings } },
    });
    expect(toSavings.status, JSON.stringify(toSavings.body)).toBe(201);
    expect(toSavings.body.data.payment).toEqual({ to: { accountId: savings }, scheme: null });
    const toEur = await schedule(user, main, {
      amount: -400_00,
      description: 'Holiday',
      rrule: 'FREQ=MONTHLY;BYMONTHDAY=1',
      startAt: `${YEAR}-02-01T09:30:00+01:00`,
      payment: { to: { accountId: eur } },
    });
    expect(toEur.status, JSON.stringify(toEur.body)).toBe(201);

    // Feb: 1,000.00 and 400.00 leave (1,100.00 left); Mar: 1,000.00 leaves (100.00), 400.00 cannot: AM04.
    expect((await advance(user, { to: `${YEAR}-03-20T12:00:00Z` })).status).toBe(200);
    const made = await payments(user);
    expect(made.map((p) => [p.status, p.scheme, p.amount, p.statusReason?.code ?? null])).toEqual([
      ['ACSC', 'internal', 1_000_00, null],
      ['ACSC', 'internal', 400_00, null],
      ['ACSC', 'internal', 1_000_00, null],
      ['RJCT', 'internal', 400_00, 'AM04'],
    ]);
    expect(made[0]).toMatchObject({ to: { accountId: savings }, acceptedAt: dueAt(2), settledAt: dueAt(2) });
    // 400.00 PLN × 0.25 × (1 − 0.005) = 99.50 EUR each, as POST /v1/payments converts.
    const legs = await Promise.all(
      (made[1]?.transactionIds ?? []).map(
        async (id) => (await app.call('GET', `/v1/transactions/${id}`, { token: user.accessToken })).body.data,
      ),
    );
    expect(legs.find((leg) => leg.amount < 0)).toMatchObject({ amount: -400_00, currency: 'PLN', accountId: main });
    expect(legs.find((leg) => leg.amount > 0)).toMatchObject({
      accountId: eur,
      amount: 99_50,
      currency: 'EUR',
      originalAmount: 400_00,
      originalCurrency: 'PLN',
      exchangeRate: '0.2487500000',
    });
    expect(await balance(user, savings)).toBe(2_000_00);
    expect(await balance(user, main)).toBe(100_00);
    const eurRuns = (await runs(user, toEur.body.data.id)).reverse();
    expect(eurRuns.map((run) => run.failure?.code ?? null)).toEqual([null, 'AM04']);

    // The occurrence run again after a lost run record answers the transfer it made: no second one.
    const scheduleId: string = toSavings.body.data.id;
    await app.db.query('delete from schedule_runs where schedule_id = $1 and n = 2', [scheduleId]);
    await app.db.query(`update schedules set next_run_at = $2, next_run_n = 2 where id = $1`, [scheduleId, dueAt(3)]);
    const again = await app.orm.em
      .fork()
      .transactional((tx) => runScheduleOccurrence(tx, { scheduleId, dueAt: new Date(dueAt(3)) }));
    expect(again).toEqual({ kind: 'booked', events: 0 });

    // Money comes in; April pays both again.
    expect((await simulate(app, user, { accountId: main, amount: 1_300_00 })).status).toBe(201);
    expect((await advance(user, { to: `${YEAR}-04-20T12:00:00Z` })).status).toBe(200);
    expect((await payments(user)).slice(4).map((p) => p.status)).toEqual(['ACSC', 'ACSC']);
    expect(await balance(user, savings)).toBe(3_000_00);
    expect(await balance(user, eur)).toBe(2 * 99_50);
    for (const accountId of [main, savings, eur]) expectConsistent(await ledgerOf(app, accountId));
  });

  it('refuses, at creation, an unknown, the same or a closed account and a scheme that cannot carry the currency', async () => {
    const user = await app.createUser();
    const main = await openAccount(app, user, 'Main');
    const closed = await openAccount(app, user, 'Closed');
    const closing = await app.call('POST', `/v1/accounts/${closed}/close`, {
      token: user.accessToken,
      body: { name: 'Closed', password: user.password },
    });
    expect(closing.status, JSON.stringify(closing.body)).toBeLessThan(300);
    const other = await app.createUser();
    const theirs = await openAccount(app, other, 'Theirs');
    const body = { amount: -100_00, description: 'Move', rrule: 'FREQ=MONTHLY;BYMONTHDAY=1', startAt: `${YEAR}-02-01T09:00:00Z` };
    const cases: [Record<string, unknown>, string][] = [
      [{ to: { accountId: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d' } }, 'payment.to.accountId'],
      [{ to: { accountId: theirs } }, 'payment.to.accountId'],
      [{ to: { accountId: main } }, 'payment.to.accountId'],
      [{ to: { accountId: closed } }, 'payment.to.accountId'],
      [{ to: { iban: IBAN, name: 'Jan Kowalski' }, scheme: 'sepa' }, 'payment.scheme'],
      [{ to: { iban: IBAN, name: 'Jan Kowalski' }, scheme: 'sepa_instant' }, 'payment.scheme'],
    ];
    for (const [payment, path] of cases) {
      const res = await schedule(user, main, { ...body, payment });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path }] });
    }
    // A scheme beside an own account is not a shape the API takes.
    const withScheme = await schedule(user, main, { ...body, payment: { to: { accountId: closed }, scheme: 'elixir' } });
    expect(withScheme.status).toBe(400);
    // An EUR account pays an IBAN only over a scheme that carries EUR.
    const eur = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Euro', currency: 'EUR' } });
    const elixir = await schedule(user, eur.body.data.id, {
      ...body,
      payment: { to: { iban: IBAN, name: 'Jan Kowalski' }, scheme: 'elixir' },
    });
    expect(elixir.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'payment.scheme' }] });
    const { rows } = await app.db.query('select count(*)::int as n from schedules where user_id = $1', [user.id]);
    expect(rows[0]?.n).toBe(0);
  });

  it('in a scenario names the other account by its key; export, apply and a fork keep it pointing at the copy', async () => {
    const user = await app.createUser();
    const scenario = {
      version: 1,
      seed: 1,
      accounts: [
        {
          key: 'main',
          name: 'Konto',
          openingBalance: 5_000_00,
          schedules: [
            {
              amount: -500_00,
              description: 'Oszczędności',
              rrule: 'FREQ=MONTHLY;BYMONTHDAY=10',
              startAt: `${YEAR}-02-10T09:00:00+01:00`,
              payment: { to: { account: 'savings' } },
            },
          ],
        },
        { key: 'savings', name: 'Oszczędności' },
      ],
    };
    const res = await apply(app, user, { scenario });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [main, savings] = res.body.data.accounts.map((account: { id: string }) => account.id);
    const list = await app.call('GET', `/v1/accounts/${main}/schedules`, { token: user.accessToken });
    expect(list.body.data).toMatchObject([{ payment: { to: { accountId: savings }, scheme: null } }]);

    const document = await exported(app, user);
    expect(document.accounts[0].schedules).toMatchObject([{ payment: { to: { account: 'a2' } } }]);
    const again = await app.createUser();
    const reapplied = await apply(app, again, { scenario: document });
    expect(reapplied.status, JSON.stringify(reapplied.body)).toBe(200);
    expect(comparable(await exported(app, again))).toEqual(comparable(document));

    const unknown = structuredClone(scenario);
    (unknown.accounts[0]?.schedules?.[0] as { payment: unknown }).payment = { to: { account: 'nope' } };
    const refused = await apply(app, await app.createUser(), { scenario: unknown });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('schedules.0.payment.to.account');

    const snap = await app.call('POST', '/v1/sandbox/snapshots', { token: user.accessToken, body: { name: 'own' } });
    expect(snap.status, JSON.stringify(snap.body)).toBe(201);
    const forked = await app.call('POST', '/v1/worlds', { token: user.accessToken, body: { snapshotId: snap.body.data.id } });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const child = { accessToken: forked.body.data.accessToken as string } as TestUser;
    const childAccounts = (await app.call('GET', '/v1/accounts', { token: child.accessToken })).body.data as {
      id: string;
      name: string;
    }[];
    const childMain = childAccounts.find((account) => account.name === 'Konto')?.id as string;
    const childSavings = childAccounts.find((account) => account.name === 'Oszczędności')?.id as string;
    const childSchedules = await app.call('GET', `/v1/accounts/${childMain}/schedules`, { token: child.accessToken });
    expect(childSchedules.body.data).toMatchObject([{ payment: { to: { accountId: childSavings } } }]);
    expect((await advance(child, { to: `${YEAR}-02-20T12:00:00Z` })).status).toBe(200);
    expect(await balance(child, childSavings)).toBe(500_00);
    expect(await balance(user, savings)).toBe(0);
  });
});
