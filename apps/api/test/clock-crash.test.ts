/**
 * An advance survives a crash (docs/concepts/clock-and-schedules.md): a real API process is SIGKILLed in the middle of a
 * one-year advance over 10 schedules and 100 pending settlements; the same advance, asked again of
 * another process, finishes the year. Every occurrence and every settlement happened exactly once,
 * and balances equal the sum of posted rows.
 */
import { waitUntil } from '@sandbank/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';
import { type KillableApi, startKillableApi } from './killable-api.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

const DAY = 86_400_000;

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

it('a one-year advance killed midway and asked again books every run and settlement exactly once', async () => {
  const user = await app.createUser();
  const accountId = (await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Main' } })).body.data.id;
  const call = (body: unknown, route: string) => app.call('POST', route, { token: user.accessToken, body });
  expect((await call({ accountId, amount: 1_000_000_00 }, '/v1/simulations/transaction')).status).toBe(201);
  const start = new Date(Date.now() + DAY).toISOString();
  const rules = [
    'FREQ=WEEKLY;BYDAY=MO',
    'FREQ=WEEKLY;BYDAY=FR',
    'FREQ=MONTHLY;BYMONTHDAY=10',
    'FREQ=MONTHLY;BYMONTHDAY=-1',
    'FREQ=DAILY;INTERVAL=2',
  ];
  for (let index = 0; index < 10; index++) {
    const rrule = rules[index % rules.length];
    const res = await call(
      { amount: index % 2 ? -1_00 : 2_00, description: `S${index}`, rrule, startAt: start },
      `/v1/accounts/${accountId}/schedules`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  for (let index = 0; index < 100; index++) {
    const body = { accountId, amount: -(index + 1), status: 'pending', settleAfter: `P${1 + (index % 300)}D` };
    expect((await call(body, '/v1/simulations/transaction')).status).toBe(201);
  }
  const to = new Date(Date.now() + 365 * DAY).toISOString();

  // Strike while the year is being fired.
  api = await startKillableApi(app);
  const advancing = fetch(`${api.url}/v1/clock/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ to }),
  }).catch((error: unknown) => error);
  const runsOf = () =>
    count('select count(*) from schedule_runs r join schedules s on s.id = r.schedule_id where s.user_id = $1', [user.id]);
  await waitUntil(async () => (await runsOf()) >= 100, { timeoutMs: 60_000, intervalMs: 5, what: '100 runs fired' });
  api.kill();
  await api.exited;
  expect(await advancing).toBeInstanceOf(Error); // the answer never came
  const firedBeforeCrash = await runsOf();

  // Asked again (the advisory lock died with the process): it finishes the year.
  const again = await call({ to }, '/v1/clock/advance');
  expect(again.status, JSON.stringify(again.body)).toBe(200);
  const total = await runsOf();
  expect(total).toBeGreaterThan(firedBeforeCrash);
  expect(again.body.data.fired.scheduled).toBe(total - firedBeforeCrash);

  // Every run once: n is 1…N without gaps per schedule, each booked one transaction of its own.
  const { rows: perSchedule } = await app.db.query(
    `select s.id, count(r.n) as runs, max(r.n) as last, count(distinct r.transaction_id) as booked
       from schedules s left join schedule_runs r on r.schedule_id = s.id where s.user_id = $1 group by s.id`,
    [user.id],
  );
  for (const row of perSchedule) expect([Number(row.runs), Number(row.booked)]).toEqual([Number(row.last), Number(row.last)]);
  expect(
    await count(`select count(*) from transactions where account_id = $1 and external_txn_id like 'sch\\_%'`, [accountId]),
  ).toBe(total);
  // Every settlement due by then posted once; the rest still pending.
  const due = await count(`select count(*) from transactions where account_id = $1 and status = 'pending' and settle_at <= $2`, [
    accountId,
    to,
  ]);
  expect(due).toBe(0);
  expect(
    await count(
      `select count(*) from transactions where account_id = $1 and status = 'posted' and external_txn_id like 'sim\\_%' and amount < 0`,
      [accountId],
    ),
  ).toBe(100);
  expectConsistent(await ledgerOf(app, accountId));
}, 120_000);
