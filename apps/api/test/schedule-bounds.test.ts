/**
 * The bounds of schedules and of what one request fires (issue 27): schedules per account
 * (LIMIT_SCHEDULES_PER_ACCOUNT, 422 LIMIT_EXCEEDED, race-free), an advance that would fire more than
 * LIMIT_DUE_ITEMS_PER_REQUEST items (422 ADVANCE_TOO_LARGE with the count, nothing moves), and a
 * schedule whose backfill would (422 LIMIT_EXCEEDED at startAt with the count, nothing created).
 */
import { openAccount } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';
import { worldCalls } from './world-calls.ts';

const SCHEDULES = 3;
const ITEMS = 50;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ LIMIT_SCHEDULES_PER_ACCOUNT: String(SCHEDULES), LIMIT_DUE_ITEMS_PER_REQUEST: String(ITEMS) });
});
afterAll(() => app.close());

const DAY = 86_400_000;
const { advance, schedule, clock, history } = worldCalls(() => app);
const daily = (startAt: Date, extra: Record<string, unknown> = {}) => ({
  amount: 1_00,
  description: 'Daily',
  rrule: 'FREQ=DAILY',
  timezone: 'UTC',
  startAt: startAt.toISOString(),
  ...extra,
});

describe('schedules per account', () => {
  it(`${SCHEDULES + 5} parallel creations on one account make exactly ${SCHEDULES}; another account is not affected`, async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const tomorrow = new Date(Date.now() + DAY);
    const results = await Promise.all(Array.from({ length: SCHEDULES + 5 }, () => schedule(user, accountId, daily(tomorrow))));
    expect(results.filter((res) => res.status === 201)).toHaveLength(SCHEDULES);
    const refused = results.filter((res) => res.status !== 201);
    expect(refused.map((res) => [res.status, res.body.code])).toEqual(Array.from({ length: 5 }, () => [422, 'LIMIT_EXCEEDED']));
    expect(refused[0]?.body.message).toBe(`The account has ${SCHEDULES} schedules; the limit is ${SCHEDULES}`);
    const other = await openAccount(app, user);
    expect((await schedule(user, other, daily(tomorrow))).status).toBe(201);
    // An ended schedule frees its place (a deleted one too).
    const listed = await app.call('GET', `/v1/accounts/${accountId}/schedules`, { token: user.accessToken });
    await app.call('DELETE', `/v1/schedules/${listed.body.data[0].id}`, { token: user.accessToken });
    expect((await schedule(user, accountId, daily(tomorrow, { rrule: 'FREQ=DAILY;COUNT=1' }))).status).toBe(201);
    expect((await advance(user, { by: 'P3D' })).status).toBe(200);
    expect((await schedule(user, accountId, daily(new Date(Date.now() + 5 * DAY)))).status).toBe(201);
  });
});

describe('what one request may fire', () => {
  it(`refuses an advance that would fire more than ${ITEMS} items with the count, and moves nothing`, async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const start = new Date(Date.now() + DAY);
    // 2 daily schedules, one booking pending runs that settle a day later: 3 items a day.
    expect((await schedule(user, accountId, daily(start))).status).toBe(201);
    const pending = daily(start, { amount: 2_00, status: 'pending', settleAfter: 'P1D' });
    expect((await schedule(user, accountId, pending)).status).toBe(201);
    const before = await clock(user);

    const refused = await advance(user, { by: 'P30D' });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('ADVANCE_TOO_LARGE');
    // Days 1–30: 30 + 30 runs and the settlements of the 29 runs that settle by day 30 (+1 for the first day's start).
    const counted = Number(/would fire (\d+) items/.exec(refused.body.message)?.[1]);
    expect(counted).toBeGreaterThan(ITEMS);
    expect(counted).toBeGreaterThanOrEqual(88);
    expect(counted).toBeLessThanOrEqual(91);
    expect(refused.body.details).toEqual([{ path: 'by', message: `At most ${ITEMS} items due on the way` }]);
    expect((await clock(user)).offsetMs).toBe(before.offsetMs);
    expect(await history(user, accountId)).toEqual([]);

    // Smaller steps fire it all.
    const step = await advance(user, { by: 'P10D' });
    expect(step.status, JSON.stringify(step.body)).toBe(200);
    const { scheduled, settled } = step.body.data.fired;
    expect(scheduled + settled).toBeLessThanOrEqual(ITEMS);
    expect(scheduled).toBeGreaterThanOrEqual(18);
  });

  it(`refuses a schedule whose backfill would fire more than ${ITEMS} items, and creates nothing`, async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const refused = await schedule(user, accountId, daily(new Date(Date.now() - 60 * DAY)));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('LIMIT_EXCEEDED');
    expect(refused.body.message).toMatch(/would fire (60|61) past runs and settlements at once; one request fires at most 50$/);
    expect(refused.body.details).toEqual([
      { path: 'startAt', message: `At most ${ITEMS} past items; start later, or create it paused` },
    ]);
    // Pending runs that settle by now count too: 30 runs, 28 settlements.
    const settling = daily(new Date(Date.now() - 30 * DAY), { status: 'pending', settleAfter: 'P2D' });
    expect((await schedule(user, accountId, settling)).body.code).toBe('LIMIT_EXCEEDED');
    const listed = await app.call('GET', `/v1/accounts/${accountId}/schedules`, { token: user.accessToken });
    expect(listed.body.data).toEqual([]);
    expect(await history(user, accountId)).toEqual([]);

    const created = await schedule(user, accountId, daily(new Date(Date.now() - 40 * DAY)));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.runs).toBeGreaterThanOrEqual(40);
  });
});
