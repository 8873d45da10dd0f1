/**
 * A clearing session survives a crash (docs/concepts/payments.md#crashes): a real API process is
 * SIGKILLed while an advance settles one Elixir session of 300 payments; the same advance, asked
 * again of this process, settles the rest. Every payment went ACTC → ACSP → ACSC exactly once, every
 * hold posted exactly once, and the balance equals the sum of posted rows. A process killed while a
 * batch's steps are written but its clock move waits leaves none of the batch (the batch and the clock
 * commit together). Also: a payment's step fired twice (a second runner, a retry) changes nothing the second time.
 */
import { fireDueItems } from '@sandbank/core';
import { waitUntil } from '@sandbank/testing';
import { simulate } from '@sandbank/testing/fixtures';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { type KillableApi, startKillableApi } from './killable-api.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

const PAYMENTS = 300;

let app: TestApp;
let api: KillableApi | undefined;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  api?.kill();
  await app.close();
});

const count = async (sql: string, params: unknown[]) => Number((await app.db.query(sql, params)).rows[0].count);

/** Tuesday of the second full week of June next year, 08:00 Warsaw: before the 09:00 cut-off of a business day. */
const YEAR = new Date().getUTCFullYear() + 1;
const june = DateTime.fromObject({ year: YEAR, month: 6, day: 8 }, { zone: 'Europe/Warsaw' });
const tuesday = june.plus({ days: (2 - june.weekday + 7) % 7 });
const at = (time: string) => {
  const [hour, minute] = time.split(':').map(Number);
  return tuesday.set({ hour, minute }).toUTC().toISO() as string;
};

async function worldWithPayments(): Promise<{ user: TestUser; accountId: string }> {
  const user = await app.createUser();
  const accountId = (await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Main' } })).body.data.id;
  expect((await simulate(app, user, { accountId, amount: 1_000_000_00 })).status).toBe(201);
  expect((await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { to: at('08:00') } })).status).toBe(200);
  for (let i = 0; i < PAYMENTS; i += 30) {
    const batch = Array.from({ length: Math.min(30, PAYMENTS - i) }, (_, j) =>
      app.call('POST', '/v1/payments', {
        token: user.accessToken,
        body: { fromAccountId: accountId, to: { iban: 'PL61109010140000071219812874', name: 'Landlord' }, amount: 1_00 + i + j },
      }),
    );
    for (const res of await Promise.all(batch)) expect(res.body.data?.status, JSON.stringify(res.body)).toBe('ACTC');
  }
  return { user, accountId };
}

it('an advance killed while a session settles, asked again, settles every payment exactly once', async () => {
  const { user, accountId } = await worldWithPayments();
  const to = at('11:00');
  api = await startKillableApi(app);
  const advancing = fetch(`${api.url}/v1/clock/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ to }),
  }).catch((error: unknown) => error);
  const settledOf = () => count(`select count(*) from payments where user_id = $1 and status = 'ACSC'`, [user.id]);
  // Strike in the middle of the results: some payments settled, others not yet.
  while ((await settledOf()) < 50) await new Promise((resolve) => setTimeout(resolve, 5));
  api.kill();
  await api.exited;
  expect(await advancing).toBeInstanceOf(Error); // the answer never came
  const settledBeforeCrash = await settledOf();
  expect(settledBeforeCrash).toBeLessThan(PAYMENTS);

  const again = await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { to } });
  expect(again.status, JSON.stringify(again.body)).toBe(200);
  expect(again.body.data.fired.payments).toBe(PAYMENTS - settledBeforeCrash);
  expect(await settledOf()).toBe(PAYMENTS);

  // Each payment: one created, one ACSP, one ACSC event; its hold posted once (version 2, one update event).
  const { rows: perPayment } = await app.db.query<{ statuses: string[] }>(
    `select array_agg(e.payload->'payment'->>'status' order by e.txid, e.seq) as statuses
       from payments p join events e on e.payload->'payment'->>'id' = p.id::text
      where p.user_id = $1 group by p.id`,
    [user.id],
  );
  expect(perPayment).toHaveLength(PAYMENTS);
  for (const row of perPayment) expect(row.statuses).toEqual(['ACTC', 'ACSP', 'ACSC']);
  expect(
    await count(
      `select count(*) from transactions where account_id = $1 and payment_id is not null and status = 'posted' and version = 2`,
      [accountId],
    ),
  ).toBe(PAYMENTS);
  expect(
    await count(
      `select count(*) from events e join transactions t on t.id::text = e.payload->'transaction'->>'id'
        where t.payment_id is not null and t.account_id = $1 and e.type = 'transaction.updated'`,
      [accountId],
    ),
  ).toBe(PAYMENTS);
  const ledger = await ledgerOf(app, accountId);
  expectConsistent(ledger);
  const paid = (PAYMENTS * (2 * 1_00 + PAYMENTS - 1)) / 2;
  expect(
    Number((await app.db.query('select balance, held_amount from accounts where id = $1', [accountId])).rows[0].balance),
  ).toBe(1_000_000_00 - paid);
}, 180_000);

it('a batch commits whole with the clock or not at all: killed while its clock move waits, none of it is left', async () => {
  const { user, accountId } = await worldWithPayments();
  // The session's entries first (ACSP at 09:30, every hold still pending), then the results at 10:30.
  expect((await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { to: at('09:45') } })).status).toBe(200);
  const holder = await app.db.connect();
  try {
    // The world's clock row held: the first results batch writes its steps, then waits to move the clock.
    await holder.query('begin');
    await holder.query('select 1 from users where id = $1 for no key update', [user.id]);
    api = await startKillableApi(app);
    const advancing = fetch(`${api.url}/v1/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: at('11:00') }),
    }).catch((error: unknown) => error);
    await waitUntil(
      async () =>
        (
          await app.db.query(
            `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock' and query like '%clock_offset_ms%'`,
          )
        ).rows[0].n > 0,
      { timeoutMs: 60_000, intervalMs: 20, what: 'the batch waiting to move the clock' },
    );
    api.kill();
    await api.exited;
    expect(await advancing).toBeInstanceOf(Error);
  } finally {
    await holder.query('rollback');
    holder.release();
  }
  // Nothing of the killed batch: no payment settled, every hold pending, no transaction.updated event.
  expect(await count(`select count(*) from payments where user_id = $1 and status = 'ACSP'`, [user.id])).toBe(PAYMENTS);
  expect(
    await count(`select count(*) from transactions where account_id = $1 and payment_id is not null and status = 'pending'`, [
      accountId,
    ]),
  ).toBe(PAYMENTS);
  expect(await count(`select count(*) from events where user_id = $1 and type = 'transaction.updated'`, [user.id])).toBe(0);
  const again = await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { to: at('11:00') } });
  expect(again.status, JSON.stringify(again.body)).toBe(200);
  expect(again.body.data.fired.payments).toBe(PAYMENTS);
  expect(await count(`select count(*) from payments where user_id = $1 and status = 'ACSC'`, [user.id])).toBe(PAYMENTS);
  expectConsistent(await ledgerOf(app, accountId));
}, 180_000);

it('a step fired again (a second runner, a retry after a crash) changes nothing', async () => {
  const user = await app.createUser();
  const accountId = (await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Main' } })).body.data.id;
  expect((await simulate(app, user, { accountId, amount: 100_00 })).status).toBe(201);
  expect((await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { to: at('08:00') } })).status).toBe(200);
  const created = await app.call('POST', '/v1/payments', {
    token: user.accessToken,
    body: { fromAccountId: accountId, to: { iban: 'PL61109010140000071219812874', name: 'Landlord' }, amount: 10_00 },
  });
  const eventsOf = () => count(`select count(*) from events where user_id = $1`, [user.id]);
  // Two runners over the same world and instant, one after the other (as after a crash): the second finds nothing due.
  const until = new Date(at('10:30'));
  const first = await fireDueItems(app.orm.em.fork(), { userId: user.id, until, moveClock: false });
  expect(first.payments).toBe(2);
  const events = await eventsOf();
  const second = await fireDueItems(app.orm.em.fork(), { userId: user.id, until, moveClock: false });
  expect(second).toMatchObject({ payments: 0, events: 0 });
  expect(await eventsOf()).toBe(events);
  const payment = (await app.call('GET', `/v1/payments/${created.body.data.id}`, { token: user.accessToken })).body.data;
  expect(payment.status).toBe('ACSC');
  expectConsistent(await ledgerOf(app, accountId));
});
