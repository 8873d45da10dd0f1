/**
 * Each user's world has a clock (SPEC §5) and schedules (SPEC §8), over real HTTP on a real
 * PostgreSQL: advance by and to, due items in due-time order at their own due times, the errors,
 * schedules across DST and month ends, pause/resume, concurrent advances, a reset, and items that
 * fall due as wall time passes.
 */
import { fireDueItemsEverywhere } from '@sandbank/core';
import type { ScheduleRun } from '@sandbank/schemas';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser, visibleEvents } from './helpers.ts';
import { expectConsistent, ledgerOf } from './ledger-helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const DAY = 86_400_000;
/** A year wholly in the future of every clock here, so absolute dates stay valid whenever the suite runs. */
const YEAR = new Date().getUTCFullYear() + 1;

const clock = async (user: TestUser) => (await app.call('GET', '/v1/clock', { token: user.accessToken })).body.data;
const advance = (user: TestUser, body: Record<string, unknown>) =>
  app.call('POST', '/v1/clock/advance', { token: user.accessToken, body });
const schedule = (user: TestUser, accountId: string, body: Record<string, unknown>) =>
  app.call('POST', `/v1/accounts/${accountId}/schedules`, { token: user.accessToken, body });
const runs = async (user: TestUser, scheduleId: string): Promise<ScheduleRun[]> =>
  (await app.call('GET', `/v1/schedules/${scheduleId}/runs?limit=200`, { token: user.accessToken })).body.data;

async function history(user: TestUser, accountId: string) {
  const res = await app.call('GET', `/v1/accounts/${accountId}/transactions?limit=200&status=all`, { token: user.accessToken });
  expect(res.status).toBe(200);
  return res.body.data as { externalTxnId: string; amount: number; date: string; status: string; postedAt: string | null }[];
}

describe('the clock', () => {
  it('starts at wall time, moves forward by a duration or to an instant, and dates what happens in the world', async () => {
    const user = await app.createUser();
    const start = await clock(user);
    expect(start.offsetMs).toBe(0);
    expect(Math.abs(new Date(start.now).getTime() - Date.now())).toBeLessThan(5_000);

    const byMonth = await advance(user, { by: 'P1M' });
    expect(byMonth.status, JSON.stringify(byMonth.body)).toBe(200);
    expect(byMonth.body.data).toMatchObject({ fired: { scheduled: 0, settled: 0, expired: 0 }, events: 0 });
    const from = new Date(byMonth.body.data.from);
    const expected = new Date(from);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(new Date(byMonth.body.data.now).getTime() - expected.getTime()).toBeGreaterThanOrEqual(0);
    expect(new Date(byMonth.body.data.now).getTime() - expected.getTime()).toBeLessThan(5_000);
    const after = await clock(user);
    expect(after.offsetMs).toBeGreaterThan(27 * DAY);

    // A simulation without a date is dated on the world's clock, and so is its event.
    const accountId = await openAccount(app, user);
    const booked = await simulate(app, user, { accountId, amount: 10_00 });
    expect(booked.status).toBe(201);
    const date = new Date(booked.body.data.transaction.date).getTime();
    expect(Math.abs(date - new Date(after.now).getTime())).toBeLessThan(5_000);
    const [event] = await visibleEvents(app, user, 1, '');
    expect(Math.abs(new Date(event?.createdAt ?? 0).getTime() - date)).toBeLessThan(5_000);
    expect(event?.data.transaction?.date).toBe(booked.body.data.transaction.date);
    // "Not in the future" is the world's future: a week after wall time is the past now.
    const lastWeek = new Date(Date.now() + 7 * DAY).toISOString();
    expect((await simulate(app, user, { accountId, amount: 1_00, date: lastWeek })).status).toBe(201);
    const tooLate = new Date(new Date(after.now).getTime() + DAY).toISOString();
    const refused = await simulate(app, user, { accountId, amount: 1_00, date: tooLate });
    expect([refused.status, refused.body.details?.[0]?.path]).toEqual([400, 'date']);

    const to = `${YEAR + 1}-01-01T00:00:00.000Z`;
    const toInstant = await advance(user, { to });
    expect(toInstant.status).toBe(200);
    expect(new Date(toInstant.body.data.now).getTime() - new Date(to).getTime()).toBeLessThan(5_000);
  });

  it('refuses bad advances with a clear error and changes nothing', async () => {
    const user = await app.createUser();
    const before = await clock(user);
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ to: '2000-01-01T00:00:00Z' }, 409, 'CLOCK_BACKWARD', 'to'],
      [{ by: 'P2Y1D' }, 422, 'ADVANCE_TOO_LARGE', 'by'],
      [{ to: `${YEAR + 3}-01-01T00:00:00Z` }, 422, 'ADVANCE_TOO_LARGE', 'to'],
      [{ by: 'P1M', to: `${YEAR}-01-01T00:00:00Z` }, 400, 'VALIDATION_ERROR', 'by'],
      [{}, 400, 'VALIDATION_ERROR', 'by'],
      [{ by: 'one month' }, 400, 'VALIDATION_ERROR', 'by'],
      [{ by: '-P1D' }, 400, 'VALIDATION_ERROR', 'by'],
      [{ to: 'tomorrow' }, 400, 'VALIDATION_ERROR', 'to'],
    ];
    for (const [body, status, code, path] of cases) {
      const res = await advance(user, body);
      expect([res.status, res.body.code, res.body.details?.[0]?.path], JSON.stringify(body)).toEqual([status, code, path]);
    }
    expect((await clock(user)).offsetMs).toBe(before.offsetMs);
  });

  it('settles and expires pending transactions at their own due times as it passes them', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 100_00 });
    const settles = await simulate(app, user, { accountId, amount: -10_00, status: 'pending', settleAfter: 'P2D' });
    const expires = await simulate(app, user, { accountId, amount: -20_00, status: 'pending', expireAfter: 'P5D' });
    const later = await simulate(app, user, { accountId, amount: -30_00, status: 'pending', settleAfter: 'P10D' });
    const res = await advance(user, { by: 'P7D' });
    expect(res.body.data).toMatchObject({ fired: { scheduled: 0, settled: 1, expired: 1 }, events: 2 });
    const rows = await history(user, accountId);
    const find = (id: string) => rows.find((row) => row.externalTxnId === id);
    const settled = find(settles.body.data.transaction.externalTxnId);
    expect(settled?.status).toBe('posted');
    expect(new Date(settled?.postedAt ?? 0).getTime()).toBe(new Date(settles.body.data.transaction.date).getTime() + 2 * DAY);
    expect(find(expires.body.data.transaction.externalTxnId)?.status).toBe('voided');
    expect(find(later.body.data.transaction.externalTxnId)?.status).toBe('pending');
    // 4 created, 1 updated (settled), 1 removed (expired).
    const events = await visibleEvents(app, user, 6, '?limit=50');
    const removed = events.find((event) => event.type === 'transaction.removed');
    expect(removed?.data.reason).toBe('expired');
    expect(new Date(removed?.createdAt ?? 0).getTime()).toBe(new Date(expires.body.data.transaction.date).getTime() + 5 * DAY);
    expectConsistent(await ledgerOf(app, accountId));
  });
});

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
    ];
    for (const [body, path] of cases) {
      const res = await schedule(user, accountId, body);
      expect([res.status, res.body.code, res.body.details?.[0]?.path], JSON.stringify(body)).toEqual([
        400,
        'VALIDATION_ERROR',
        path,
      ]);
    }
    const listed = await app.call('GET', `/v1/accounts/${accountId}/schedules`, { token: user.accessToken });
    expect(listed.body.data).toEqual([]);
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
});

describe('concurrency and due items on wall time', () => {
  it('two concurrent advances of one world never double a run', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const created = await schedule(user, accountId, { amount: 1_00, description: 'Daily', rrule: 'FREQ=DAILY', timezone: 'UTC' });
    const [a, b] = await Promise.all([advance(user, { by: 'P1M' }), advance(user, { by: 'P1M' })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // The first run (at the start, now) fired when the schedule was created.
    const fired = a.body.data.fired.scheduled + b.body.data.fired.scheduled;
    expect(fired + created.body.data.runs).toBe((await runs(user, created.body.data.id)).length);
    const rows = await history(user, accountId);
    expect(new Set(rows.map((row) => row.externalTxnId)).size).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(58);
    expectConsistent(await ledgerOf(app, accountId));
  });

  it('fires what falls due as wall time passes, each world up to its own now', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 50_00 });
    const pending = await simulate(app, user, { accountId, amount: -10_00, status: 'pending', settleAfter: 'PT1H' });
    // Two hours of wall time pass: move the due time back instead of waiting.
    await app.db.query(`update transactions set settle_at = now() - interval '1 hour' where id = $1`, [
      pending.body.data.transaction.id,
    ]);
    const fired = await fireDueItemsEverywhere(app.orm.em.fork(), { worlds: 1000 });
    expect(fired.settled).toBeGreaterThanOrEqual(1);
    const row = (await history(user, accountId)).find((txn) => txn.externalTxnId === pending.body.data.transaction.externalTxnId);
    expect(row?.status).toBe('posted');
  });
});

describe('reset', () => {
  it('empties the world, keeps credentials, API keys and webhooks, sets the clock back and expires sync cursors', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    await simulate(app, user, { accountId, amount: 10_00 });
    await schedule(user, accountId, { amount: 1_00, description: 'Daily', rrule: 'FREQ=DAILY', timezone: 'UTC' });
    await advance(user, { by: 'P3D' });
    const key = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'kept' } });
    const sync = await app.call('GET', '/v1/transactions/sync', { token: user.accessToken });
    const cursor = sync.body.data.nextCursor;

    const wrong = await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'yes' } });
    expect([wrong.status, wrong.body.details?.[0]?.path]).toEqual([400, 'confirm']);
    const res = await app.call('POST', '/v1/sandbox/reset', { token: user.accessToken, body: { confirm: 'RESET' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.removed).toMatchObject({ accounts: 1, schedules: 1 });
    expect(res.body.data.removed.transactions).toBeGreaterThanOrEqual(4);
    expect(res.body.data.removed.events).toBe(res.body.data.removed.transactions);
    expect((await clock(user)).offsetMs).toBe(0);
    expect((await app.call('GET', '/v1/accounts', { token: user.accessToken })).body.data).toEqual([]);
    const keys = (await app.call('GET', '/v1/api-keys', { token: user.accessToken })).body.data;
    expect(keys.map((listed: any) => listed.id)).toContain(key.body.data.id);
    const expired = await app.call('GET', `/v1/transactions/sync?cursor=${cursor}`, { token: user.accessToken });
    expect([expired.status, expired.body.code]).toEqual([410, 'CURSOR_EXPIRED']);
  });
});

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
