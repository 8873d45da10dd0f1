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
  to: { iban: string; name: string };
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
  it('applies, and its rent is a standing order over Elixir', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const scenario = JSON.parse(readFileSync(path.join(root, 'examples/scenarios/tenant.json'), 'utf8'));
    const user = await app.createUser();
    const res = await apply(app, user, { scenario });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = await app.call('GET', `/v1/accounts/${res.body.data.accounts[0].id}/schedules`, { token: user.accessToken });
    expect(list.body.data).toMatchObject([
      { amount: -2_500_00, payment: { to: { iban: IBAN, name: 'Jan Kowalski' }, scheme: 'elixir' }, state: 'active' },
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
