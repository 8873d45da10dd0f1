/**
 * Schedules (docs/concepts/clock-and-schedules.md) over real HTTP on a real PostgreSQL, fired by the world's clock: salary and
 * rent at 09:00 Warsaw across DST, due-time order, month ends and leap days as RFC 5545 says, bad
 * rules, pause/resume/delete, and a backfill from a start in the past.
 */
import { createSchedule, tryClockLock } from '@sandbank/core';
import { pause } from '@sandbank/testing';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, startTestApp, type TestApp } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';
import { worldCalls } from './world-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const DAY = 86_400_000;
/** A year wholly in the future of every clock here, so absolute dates stay valid whenever the suite runs. */
const YEAR = new Date().getUTCFullYear() + 1;

const { advance, schedule, runs, history } = worldCalls(() => app);

describe('schedules', () => {
  it('books salary on the 10th and rent on the 1st for a year, at 09:00 Warsaw time in winter and summer', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const startAt = `${YEAR}-01-01T09:00:00+01:00`;
    const salary = await schedule(user, accountId, {
      amount: 8_000_00,
      description: 'Salary',
      category: 'salary',
      rrule: 'FREQ=MONTHLY;BYMONTHDAY=10',
      startAt,
    });
    expect(salary.status, JSON.stringify(salary.body)).toBe(201);
    expect(salary.body.data).toMatchObject({
      timezone: 'Europe/Warsaw',
      state: 'active',
      runs: 0,
      nextRunAt: `${YEAR}-01-10T08:00:00.000Z`,
    });
    const rent = await schedule(user, accountId, {
      amount: -3_000_00,
      description: 'Rent',
      rrule: 'FREQ=MONTHLY;BYMONTHDAY=1',
      startAt,
    });
    expect(rent.body.data.nextRunAt).toBe(`${YEAR}-01-01T08:00:00.000Z`);

    const res = await advance(user, { to: `${YEAR}-12-31T12:00:00Z` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.fired.scheduled).toBe(24);

    const salaryRuns = await runs(user, salary.body.data.id);
    expect(salaryRuns).toHaveLength(12);
    expect(salaryRuns.every((run) => run.transactionId && run.failure === null)).toBe(true);
    // Newest first; 09:00 local is 08:00Z in winter (CET) and 07:00Z in summer (CEST).
    expect(salaryRuns.map((run) => run.dueAt).reverse()).toEqual(
      Array.from({ length: 12 }, (_, month) => {
        const summer = month >= 3 && month <= 9;
        return `${YEAR}-${String(month + 1).padStart(2, '0')}-10T0${summer ? 7 : 8}:00:00.000Z`;
      }),
    );
    // Rent on 1 January finds no money (the salary comes on the 10th): that run fails, the schedule goes on.
    const rentRuns = (await runs(user, rent.body.data.id)).reverse();
    expect(rentRuns[0]).toMatchObject({ n: 1, transactionId: null, failure: { code: 'INSUFFICIENT_FUNDS' } });
    expect(rentRuns.slice(1).every((run) => run.transactionId !== null)).toBe(true);

    const rows = await history(user, accountId);
    expect(rows.filter((row) => row.externalTxnId === `sch_${salary.body.data.id}_3`)).toMatchObject([
      { amount: 8_000_00, date: `${YEAR}-03-10T08:00:00.000Z`, status: 'posted' },
    ]);
    const ledger = await ledgerOf(app, accountId);
    expectConsistent(ledger);
    expect(ledger.balance).toBe(12 * 8_000_00 - 11 * 3_000_00);
  });

  it('fires items in due-time order: a debit due an hour after a credit sees the credit', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await schedule(user, accountId, {
      amount: -500_00,
      description: 'Transfer out',
      rrule: 'FREQ=WEEKLY;BYDAY=FR',
      startAt: `${YEAR}-01-01T10:00:00Z`,
    });
    await schedule(user, accountId, {
      amount: 500_00,
      description: 'Pocket money',
      rrule: 'FREQ=WEEKLY;BYDAY=FR',
      startAt: `${YEAR}-01-01T09:00:00Z`,
    });
    const res = await advance(user, { to: `${YEAR}-03-01T00:00:00Z` });
    const fridays = Array.from({ length: 59 }, (_, day) => new Date(Date.UTC(YEAR, 0, 1 + day))).filter(
      (d) => d.getUTCDay() === 5,
    );
    expect(res.body.data.fired.scheduled).toBe(2 * fridays.length);
    const rows = await history(user, accountId);
    expect(rows).toHaveLength(2 * fridays.length);
    expect(rows.every((row) => row.status === 'posted')).toBe(true);
    expect((await ledgerOf(app, accountId)).balance).toBe(0);
  });

  it('follows month ends and leap days as RFC 5545 says', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 1_000_00 });
    const dueDays = async (rrule: string) => {
      const created = await schedule(user, accountId, {
        amount: 1_00,
        description: rrule,
        rrule,
        startAt: `${YEAR}-01-01T12:00:00Z`,
        timezone: 'UTC',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.data.id as string;
    };
    const last = await dueDays('FREQ=MONTHLY;BYMONTHDAY=-1');
    const thirtyFirst = await dueDays('FREQ=MONTHLY;BYMONTHDAY=31');
    const leap = await dueDays('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=1');
    // Two steps: from a date in the first half of a year, YEAR+1's July is more than one advance's two years away.
    await advance(user, { to: `${YEAR}-07-01T00:00:00Z` });
    await advance(user, { to: `${YEAR + 1}-07-01T00:00:00Z` });
    const days = async (id: string) => (await runs(user, id)).map((run) => run.dueAt.slice(0, 10)).reverse();
    const lastDays = await days(last);
    expect(lastDays).toHaveLength(18);
    expect(lastDays.slice(0, 3)).toEqual([`${YEAR}-01-31`, `${YEAR}-02-${isLeap(YEAR) ? 29 : 28}`, `${YEAR}-03-31`]);
    expect(lastDays).toContain(`${YEAR}-04-30`);
    // The 31st skips the months without one.
    expect((await days(thirtyFirst)).map((day: string) => day.slice(5, 7))).toEqual([
      '01',
      '03',
      '05',
      '07',
      '08',
      '10',
      '12',
      '01',
      '03',
      '05',
    ]);
    const leapYear = [YEAR, YEAR + 1].find(isLeap);
    expect(await days(leap)).toEqual(leapYear ? [`${leapYear}-02-29`] : []);
  });

  it('refuses a bad rule, zone or account with a clear error and creates nothing', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const base = { amount: 1_00, description: 'x', rrule: 'FREQ=MONTHLY' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, rrule: 'FREQ=SOMETIMES' }, 'rrule'],
      [{ ...base, rrule: 'FREQ=MONTHLY;BYMONTHDAY=40' }, 'rrule'],
      [{ ...base, rrule: 'FREQ=HOURLY' }, 'rrule'],
      [{ ...base, rrule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY' }, 'rrule'],
      [{ ...base, timezone: 'Mars/Olympus' }, 'timezone'],
      [{ ...base, startAt: '2000-01-01T00:00:00Z' }, 'startAt'],
      [{ ...base, amount: 0 }, 'amount'],
      [{ ...base, settleAfter: 'P2D' }, 'settleAfter'],
      [{ ...base, status: 'pending', settleAfter: 'P300000Y' }, 'settleAfter'],
      [{ ...base, status: 'pending', settleAfter: 'P101Y' }, 'settleAfter'],
    ];
    for (const [body, path] of cases) {
      const res = await schedule(user, accountId, body);
      expectRefusal(res, [400, 'VALIDATION_ERROR', path], JSON.stringify(body));
    }
    const listed = await app.call('GET', `/v1/accounts/${accountId}/schedules`, { token: user.accessToken });
    expect(listed.body.data).toEqual([]);
  });

  it('a schedule stored with a duration no date can hold (before the bound existed) fails its runs, not the clock', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const created = await schedule(user, accountId, {
      amount: 1_00,
      description: 'Old row',
      rrule: 'FREQ=MONTHLY;BYMONTHDAY=10',
      startAt: `${YEAR}-01-10T09:00:00Z`,
      status: 'pending',
      settleAfter: 'P2D',
    });
    await app.db.query(`update schedules set settle_after = 'P300000Y' where id = $1`, [created.body.data.id]);
    const res = await advance(user, { to: `${YEAR}-03-01T00:00:00Z` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const failed = await runs(user, created.body.data.id);
    expect(failed.map((run) => [run.transactionId, run.failure?.code])).toEqual([
      [null, 'VALIDATION_ERROR'],
      [null, 'VALIDATION_ERROR'],
    ]);
    expect(await history(user, accountId)).toEqual([]);
  });

  it('skips occurrences while paused, resumes at the next one, and stops when deleted', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const created = await schedule(user, accountId, {
      amount: 10_00,
      description: 'Allowance',
      rrule: 'FREQ=MONTHLY;BYMONTHDAY=5',
      startAt: `${YEAR}-01-01T09:00:00Z`,
      timezone: 'UTC',
    });
    const id = created.body.data.id;
    await advance(user, { to: `${YEAR}-02-01T00:00:00Z` });
    const paused = await app.call('POST', `/v1/schedules/${id}/pause`, { token: user.accessToken, body: {} });
    expect(paused.body.data?.state, JSON.stringify(paused.body)).toBe('paused');
    await advance(user, { to: `${YEAR}-04-01T00:00:00Z` });
    const resumed = await app.call('POST', `/v1/schedules/${id}/resume`, { token: user.accessToken, body: {} });
    expect(resumed.body.data).toMatchObject({ state: 'active', nextRunAt: `${YEAR}-04-05T09:00:00.000Z` });
    await advance(user, { to: `${YEAR}-05-01T00:00:00Z` });
    expect((await runs(user, id)).map((run) => run.n)).toEqual([4, 1]);
    expect((await history(user, accountId)).map((row) => row.externalTxnId).sort()).toEqual([`sch_${id}_1`, `sch_${id}_4`]);
    const deleted = await app.call('DELETE', `/v1/schedules/${id}`, { token: user.accessToken });
    expect(deleted.status).toBe(200);
    await advance(user, { to: `${YEAR}-07-01T00:00:00Z` });
    expect(await history(user, accountId)).toHaveLength(2);
    expect((await app.call('GET', `/v1/schedules/${id}/runs`, { token: user.accessToken })).status).toBe(404);
  });

  it('backfills the occurrences of a start in the past at once, in order', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const startAt = new Date(Date.now() - 69 * DAY).toISOString();
    const created = await schedule(user, accountId, {
      amount: 5_00,
      description: 'Weekly',
      rrule: 'FREQ=WEEKLY',
      startAt,
      timezone: 'UTC',
    });
    expect(created.status).toBe(201);
    expect(created.body.data.runs).toBe(10);
    expect(await history(user, accountId)).toHaveLength(10);
  });

  it('a backfill waits for a running advance; when the clock stays busy, nothing is created', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const startAt = new Date(Date.now() - 3 * DAY).toISOString();
    const body = { amount: 1_00, description: 'Daily', rrule: 'FREQ=DAILY', startAt, timezone: 'UTC' };
    // An advance of this world holds its clock lock (a session advisory lock, as any process takes it).
    const advancing = await tryClockLock(app.orm.em.fork(), user.id);
    if (!advancing) throw new Error('the clock lock was taken');

    // Past the wait: 409, and no schedule (a retry must not make a second one).
    const busy = createSchedule(app.orm.em.fork(), {
      userId: user.id,
      accountId,
      ...body,
      startAt: new Date(startAt),
      clockWaitMs: 300,
      limits: app.deps.config.limits,
    });
    await expect(busy).rejects.toMatchObject({ appCode: 'CLOCK_ADVANCING' });
    const listed = await app.call('GET', `/v1/accounts/${accountId}/schedules`, { token: user.accessToken });
    expect(listed.body.data).toEqual([]);

    // Within the wait: it answers once the advance ends, with its runs.
    const created = schedule(user, accountId, body);
    await pause(500, "the schedule call must be waiting on the advance's lock before it is released");
    await advancing.release();
    const answered = await created;
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    expect(answered.body.data.runs).toBeGreaterThanOrEqual(3);
    expect((await app.call('GET', `/v1/accounts/${accountId}/schedules`, { token: user.accessToken })).body.data).toHaveLength(1);
  });
});

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
