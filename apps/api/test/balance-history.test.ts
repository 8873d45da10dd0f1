/**
 * GET /v1/accounts/:id/balance-history over real HTTP and PostgreSQL: the booked balance at the end
 * of each world day (Europe/Warsaw), days without activity included, pending holds left out, the
 * last point equal to the account's balance, the range read from the world's clock and bounded.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { lifecycleCalls } from './lifecycle-calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { act, patch, account } = lifecycleCalls(() => app);
const DAY_MS = 86_400_000;
/** The local day (Europe/Warsaw) of an instant, `YYYY-MM-DD`. */
const warsawDay = (instant: Date) => instant.toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });
/** `YYYY-MM-DD` plus `days` (calendar arithmetic, no zone involved). */
const plusDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const history = (user: TestUser, accountId: string, query = '') =>
  app.call('GET', `/v1/accounts/${accountId}/balance-history${query}`, { token: user.accessToken });

async function worldNow(user: TestUser): Promise<Date> {
  const res = await app.call('GET', '/v1/clock', { token: user.accessToken });
  return new Date(res.body.data.now);
}

/** A world moved 3 days ahead, with a week of bookings: credit, debit, a day without any, post, void, reverse, a hold. */
async function bookedWeek() {
  const user = await app.createUser();
  const accountId = await openAccount(app, user);
  expect((await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by: 'P3D' } })).status).toBe(200);
  const now = await worldNow(user);
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const book = async (body: { amount: number } & Record<string, unknown>) => {
    const res = await simulate(app, user, { accountId, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.transaction as { id: string };
  };
  await book({ amount: 100_00, date: daysAgo(5), description: 'Salary' });
  const groceries = await book({ amount: -20_00, date: daysAgo(3), merchant: 'Lidl' });
  const card = await book({ amount: -15_00, status: 'pending', merchant: 'Orlen' });
  expect((await patch(user, card.id, { description: 'Fuel' })).status).toBe(200);
  expect((await act(user, card.id, 'post')).status).toBe(200);
  const cancelled = await book({ amount: -5_00, status: 'pending' });
  expect((await act(user, cancelled.id, 'void')).status).toBe(200);
  expect((await act(user, groceries.id, 'reverse')).status).toBe(201);
  await book({ amount: -7_00, status: 'pending' }); // still held at the end
  return { user, accountId, today: warsawDay(now) };
}

describe('GET /v1/accounts/:id/balance-history', () => {
  it('answers the end-of-day booked balance of every day, quiet days too; the last point is the balance', async () => {
    const { user, accountId, today } = await bookedWeek();
    const res = await history(user, accountId, `?from=${plusDays(today, -6)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data.points).toEqual([
      { date: plusDays(today, -6), balance: 0 },
      { date: plusDays(today, -5), balance: 100_00 },
      { date: plusDays(today, -4), balance: 100_00 }, // no activity
      { date: plusDays(today, -3), balance: 80_00 },
      { date: plusDays(today, -2), balance: 80_00 },
      { date: plusDays(today, -1), balance: 80_00 },
      // +20.00 reversal, −15.00 posted card; the voided −5.00 and the held −7.00 are not booked.
      { date: today, balance: 85_00 },
    ]);
    const now = await account(user, accountId);
    expect(now.balance).toBe(85_00);
    expect(data).toMatchObject({
      accountId,
      currency: 'PLN',
      timeZone: 'Europe/Warsaw',
      from: plusDays(today, -6),
      to: today,
      balance: now.balance,
      heldAmount: 7_00,
      availableBalance: now.availableBalance,
    });
    expect(data.points.at(-1).balance).toBe(now.balance);
  });

  it('defaults to the last 90 days of the world’s clock, and ends an earlier `to` on that day', async () => {
    const { user, accountId, today } = await bookedWeek();
    // The world is 3 days ahead of the wall: today is the world's, not the machine's.
    expect(today).not.toBe(warsawDay(new Date()));
    const whole = (await history(user, accountId)).body.data;
    expect(whole.from).toBe(plusDays(today, -89));
    expect(whole.to).toBe(today);
    expect(whole.points).toHaveLength(90);
    expect(whole.points.at(-1)).toEqual({ date: today, balance: 85_00 });
    expect(whole.points.slice(0, 84).every((point: { balance: number }) => point.balance === 0)).toBe(true);
    const earlier = (await history(user, accountId, `?to=${plusDays(today, -3)}`)).body.data;
    expect(earlier).toMatchObject({ from: plusDays(today, -92), to: plusDays(today, -3), balance: 85_00 });
    expect(earlier.points).toHaveLength(90);
    expect(earlier.points.at(-1)).toEqual({ date: plusDays(today, -3), balance: 80_00 });
    // `days` counts back from `to` (or today), instead of `from`.
    const week = (await history(user, accountId, '?days=7')).body.data;
    expect(week).toMatchObject({ from: plusDays(today, -6), to: today });
    expect(week.points.map((point: { balance: number }) => point.balance)).toEqual([
      0, 100_00, 100_00, 80_00, 80_00, 80_00, 85_00,
    ]);
    const before = (await history(user, accountId, `?days=2&to=${plusDays(today, -4)}`)).body.data;
    expect(before.points).toEqual([
      { date: plusDays(today, -5), balance: 100_00 },
      { date: plusDays(today, -4), balance: 100_00 },
    ]);
    // A `to` after today is read as today.
    const later = (await history(user, accountId, `?from=${plusDays(today, -1)}&to=${plusDays(today, 30)}`)).body.data;
    expect(later.points).toEqual([
      { date: plusDays(today, -1), balance: 80_00 },
      { date: today, balance: 85_00 },
    ]);
  });

  it('bounds the range: 366 days at most (422), `from` after `to` or today (400), real days only, own accounts only', async () => {
    const { user, accountId, today } = await bookedWeek();
    const longest = await history(user, accountId, `?from=${plusDays(today, -365)}`);
    expect(longest.status).toBe(200);
    expect(longest.body.data.points).toHaveLength(366);
    for (const query of [`?from=${plusDays(today, -366)}`, `?from=${plusDays(today, -400)}&to=${plusDays(today, -34)}`]) {
      const res = await history(user, accountId, query);
      expect(res.status, query).toBe(422);
      expect(res.body.code).toBe('PERIOD_TOO_LONG');
    }
    for (const query of [
      `?from=${plusDays(today, -1)}&to=${plusDays(today, -2)}`,
      `?from=${plusDays(today, 1)}`,
      '?from=2026-02-30',
      '?to=yesterday',
      '?days=0',
      '?days=367',
      '?days=1.5',
      `?days=7&from=${plusDays(today, -6)}`,
    ]) {
      const res = await history(user, accountId, query);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details?.[0]?.path, query).toMatch(/^(from|to|days)$/);
    }
    const stranger = await app.createUser();
    expect((await history(stranger, accountId)).status).toBe(404);
    expect((await history(user, '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d')).status).toBe(404);
  });
});
