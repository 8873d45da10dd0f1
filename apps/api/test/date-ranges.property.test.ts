/**
 * Dates, timestamps and durations over their whole range, on every endpoint that takes one
 * (issue 27, finding 3): history and pull filters, a sync cursor's place, a simulation's `date`, the
 * clock's `to` and `by`, a schedule's `startAt` and `settleAfter`, a key's `expiresAt`, a scenario's
 * times and `asOf`, SimpleFIN's Unix seconds. Years 0000–9999 and beyond, every offset, impossible
 * days, durations of up to 20-digit parts, in a world whose clock is today and in one whose clock
 * stands at its end (9899-12-30): never a 500. What lies outside years 0001–9999 is 400
 * VALIDATION_ERROR at its field; `to=9999-12-31` (whose end of day is the year 10000) is an answer.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { dayArb, dayOrInstantArb, durationArb, instantArb } from './input-generators.ts';

let app: TestApp;
let today: World;
let late: World;

interface World {
  user: TestUser;
  accountId: string;
  apiKey: string;
}

/** The clock's end (LATEST_CLOCK): a century before the last holdable instant. */
const CLOCK_END = Date.parse('9899-12-30T23:59:59.999Z');
const DAY = 86_400_000;

async function world(clockAt?: number): Promise<World> {
  const user = await app.createUser();
  if (clockAt !== undefined) {
    // A world whose clock already stands near its end: what no single call may do, set in SQL.
    await app.db.query(
      `update users set clock_offset_ms = $1::bigint - (extract(epoch from now()) * 1000)::bigint where id = $2`,
      [clockAt, user.id],
    );
  }
  const accountId = await openAccount(app, user);
  const funded = await simulate(app, user, { accountId, amount: 1_000_00 });
  expect(funded.status, JSON.stringify(funded.body)).toBe(201);
  const key = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'dates' } });
  return { user, accountId, apiKey: key.body.data.key };
}

beforeAll(async () => {
  app = await startTestApp({ LOG_LEVEL: 'silent' });
  today = await world();
  late = await world(CLOCK_END - DAY);
});
afterAll(() => app.close());

const worldArb = fc.constantFrom('today', 'late').map((name) => (name === 'today' ? today : late));

/** Never a 5xx; a refusal is the contract's, and `field` is refused exactly when it is not holdable. */
function expectAnswer(res: CallResult, field: string, holdable: boolean, why: string): void {
  expect(res.status, why).toBeLessThan(500);
  const paths = (res.body?.details ?? []).map((detail: { path: string }) => detail.path);
  if (!holdable) expect([res.status, res.body.code, paths.includes(field)], why).toEqual([400, 'VALIDATION_ERROR', true]);
}

const describeCall = (method: string, path: string, body: unknown, res: CallResult) =>
  `${method} ${path} ${JSON.stringify(body) ?? ''} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;

describe('dates over their whole range, on every endpoint that takes one: never a 500', () => {
  it('history: from/to as days or timestamps, 9999-12-31 and 0001-01-01 included', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, dayOrInstantArb, dayOrInstantArb, async ({ user, accountId }, from, to) => {
        const path = `/v1/accounts/${accountId}/transactions?${new URLSearchParams({ from: from.text, to: to.text })}`;
        const res = await app.call('GET', path, { token: user.accessToken });
        const why = describeCall('GET', path, undefined, res);
        expectAnswer(res, 'from', from.holdable, why);
        expectAnswer(res, 'to', to.holdable, why);
        if (from.holdable && to.holdable) expect(res.status === 200 || res.body.details?.[0]?.path === 'from', why).toBe(true);
      }),
      { numRuns: 60 },
    );
    // The outside attack's case, on both paths of the one procedure.
    const path = `/v1/accounts/${today.accountId}/transactions?to=9999-12-31`;
    const rest = await app.call('GET', path, { token: today.user.accessToken });
    expect([rest.status, rest.body.data.length]).toEqual([200, 1]);
    const input = encodeURIComponent(JSON.stringify({ id: today.accountId, to: '9999-12-31T23:59:59.999Z' }));
    const trpc = await app.call('GET', `/trpc/transactions.listAccountTransactions?input=${input}`, {
      token: today.user.accessToken,
    });
    expect(trpc.status, JSON.stringify(trpc.body)).toBe(200);
  });

  it('pull: from/to days, and the default 90 days before to=0001-01-01', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, fc.option(dayArb), fc.option(dayArb), async ({ user, apiKey }, from, to) => {
        const query = new URLSearchParams({ ...(from ? { from: from.text } : {}), ...(to ? { to: to.text } : {}) });
        const path = `/api/owner/${user.id}/transactions?${query}`;
        const res = await app.call('GET', path, { token: apiKey });
        const why = describeCall('GET', path, undefined, res);
        if (from) expectAnswer(res, 'from', from.holdable, why);
        if (to) expectAnswer(res, 'to', to.holdable, why);
      }),
      { numRuns: 40 },
    );
    for (const to of ['9999-12-31', '0001-01-01', '0001-03-31']) {
      const res = await app.call('GET', `/api/owner/${today.user.id}/transactions?to=${to}`, { token: today.apiKey });
      expect(res.status, `to=${to} ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it('sync: a cursor carrying any place in time is a page or a 400/410, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, dayArb, fc.boolean(), async ({ user, apiKey }, day, owner) => {
        // The cursor writes its place as toISOString does: the day is the part that varies.
        const payload = {
          v: 1,
          k: 'snapshot',
          e: 0,
          a: null,
          h: '0',
          d: `${day.text}T12:00:00.000Z`,
          i: '0193a6f0-0000-7000-8000-000000000000',
        };
        const cursor = Buffer.from(JSON.stringify(payload)).toString('base64url');
        const path = owner
          ? `/api/owner/${user.id}/transactions/sync?cursor=${cursor}`
          : `/v1/transactions/sync?cursor=${cursor}`;
        const res = await app.call('GET', path, { token: owner ? apiKey : user.accessToken });
        expect(res.status, describeCall('GET', path, payload, res)).toBeLessThan(500);
        if (!day.holdable) expect([res.status, res.body.details?.[0]?.path]).toEqual([400, 'cursor']);
      }),
      { numRuns: 30 },
    );
  });

  it('a simulation: any date, and any settleAfter/expireAfter from that date', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, instantArb, durationArb, fc.boolean(), async ({ user, accountId }, date, after, settle) => {
        const body = {
          accountId,
          amount: -1,
          status: 'pending',
          date: date.text,
          [settle ? 'settleAfter' : 'expireAfter']: after.value,
        };
        const res = await simulate(app, user, body);
        expectAnswer(res, 'date', date.holdable, describeCall('POST', '/v1/simulations/transaction', body, res));
      }),
      { numRuns: 40 },
    );
    // From the clock's end, the longest settleAfter still lands on a holdable instant.
    const res = await simulate(app, late.user, {
      accountId: late.accountId,
      amount: -1,
      status: 'pending',
      settleAfter: 'P100Y',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("the clock: `to` anywhere and `by` of any length, today and at the clock's end", async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), instantArb, durationArb, fc.boolean(), async (atEnd, to, by, useTo) => {
        const { user } = await world(atEnd ? CLOCK_END - DAY : undefined);
        const body = useTo ? { to: to.text } : { by: by.value };
        const res = await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body });
        const why = describeCall('POST', '/v1/clock/advance', body, res);
        if (useTo) expectAnswer(res, 'to', to.holdable, why);
        else expect(res.status, why).toBeLessThan(500);
        // Whatever it answered, the world's clock never passes its end.
        const clock = await app.call('GET', '/v1/clock', { token: user.accessToken });
        expect(Date.parse(clock.body.data.now), why).toBeLessThanOrEqual(CLOCK_END + 60_000);
        // Past the end but within the two years one call may move (beyond them: 422 ADVANCE_TOO_LARGE).
        const pastEnd = useTo ? to.holdable && to.ms > CLOCK_END && to.ms < CLOCK_END + 700 * DAY : by.days > 2 && by.days < 700;
        if (atEnd && pastEnd) {
          expect([res.status, res.body.details?.[0]?.path], why).toEqual([400, useTo ? 'to' : 'by']);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('a schedule: startAt anywhere, with a rule that may next occur after 9999 or end (UNTIL) on any day', async () => {
    const rules = [
      'FREQ=YEARLY',
      'FREQ=MONTHLY;BYMONTHDAY=1',
      'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
      'FREQ=YEARLY;UNTIL=99991231T235959Z',
    ];
    await fc.assert(
      fc.asyncProperty(
        worldArb,
        instantArb,
        fc.oneof(
          fc.constantFrom(...rules),
          // UNTIL of any day, 0000 and expanded years included (RFC 5545 writes it YYYYMMDD).
          dayArb.map((day) => `FREQ=MONTHLY;UNTIL=${day.text.replaceAll('-', '')}T000000Z`),
        ),
        durationArb,
        async ({ user, accountId }, startAt, rrule, after) => {
          const body = {
            amount: 1,
            description: 'dates',
            rrule,
            startAt: startAt.text,
            status: 'pending',
            settleAfter: after.value,
          };
          const path = `/v1/accounts/${accountId}/schedules`;
          const res = await app.call('POST', path, { token: user.accessToken, body });
          expectAnswer(res, 'startAt', startAt.holdable, describeCall('POST', path, body, res));
          if (res.status === 201) await app.call('DELETE', `/v1/schedules/${res.body.data.id}`, { token: user.accessToken });
        },
      ),
      { numRuns: 40 },
    );
    // A rule whose first occurrence would be 10000-01-01 never occurs: 400 at rrule.
    const body = {
      amount: 1,
      description: 'dates',
      rrule: 'FREQ=MONTHLY;BYMONTHDAY=1',
      startAt: '9999-12-02T00:00:00Z',
      timezone: 'UTC',
    };
    const res = await app.call('POST', `/v1/accounts/${today.accountId}/schedules`, { token: today.user.accessToken, body });
    expect([res.status, res.body.details?.[0]?.path], JSON.stringify(res.body)).toEqual([400, 'rrule']);
  });

  it('an API key: expiresAt anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(instantArb, async (expiresAt) => {
        const body = { name: 'dates', expiresAt: expiresAt.text };
        const res = await app.call('POST', '/v1/api-keys', { token: today.user.accessToken, body });
        expectAnswer(res, 'expiresAt', expiresAt.holdable, describeCall('POST', '/v1/api-keys', body, res));
        if (res.status === 201) await app.call('DELETE', `/v1/api-keys/${res.body.data.id}`, { token: today.user.accessToken });
      }),
      { numRuns: 25 },
    );
  });

  it("a scenario: transactions' at, schedules' startAt and asOf anywhere", async () => {
    await fc.assert(
      fc.asyncProperty(instantArb, instantArb, fc.option(instantArb), durationArb, async (at, startAt, asOf, after) => {
        const { user } = await world();
        const scenario = {
          version: 1,
          seed: 1,
          ...(asOf ? { asOf: asOf.text } : {}),
          accounts: [
            {
              key: 'a',
              name: 'A',
              openingBalance: 100,
              transactions: [{ at: at.text, amount: -1, description: 'dates', status: 'pending', settleAfter: after.value }],
              schedules: [{ amount: 1, description: 'dates', rrule: 'FREQ=YEARLY', startAt: startAt.text }],
            },
          ],
        };
        const res = await app.call('POST', '/v1/scenarios/apply', { token: user.accessToken, body: { scenario } });
        const why = describeCall('POST', '/v1/scenarios/apply', scenario, res);
        // The document takes up to milliseconds: a longer fraction is refused as malformed, in range or not.
        const holdable = (time: { text: string; holdable: boolean }) => time.holdable && !/\.\d{4}/.test(time.text);
        expectAnswer(res, 'scenario.accounts.0.transactions.0.at', holdable(at), why);
        expectAnswer(res, 'scenario.accounts.0.schedules.0.startAt', holdable(startAt), why);
        if (asOf) expectAnswer(res, 'scenario.asOf', holdable(asOf), why);
        const clock = await app.call('GET', '/v1/clock', { token: user.accessToken });
        expect(Date.parse(clock.body.data.now), why).toBeLessThanOrEqual(CLOCK_END + 60_000);
      }),
      { numRuns: 30 },
    );
  });

  it('SimpleFIN: start-date and end-date of any size, fraction or sign', async () => {
    const created = await app.call('POST', '/v1/simplefin/setup-token', { token: today.user.accessToken, body: {} });
    const claimUrl = new URL(Buffer.from(created.body.data.setupToken, 'base64').toString());
    const accessUrl = new URL(await (await fetch(app.url + claimUrl.pathname, { method: 'POST' })).text());
    const authorization = `Basic ${Buffer.from(`${accessUrl.username}:${accessUrl.password}`).toString('base64')}`;
    const secondsArb = fc.oneof(
      fc.integer({ min: 0, max: 253_402_300_799 }).map(String),
      fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
      fc.constantFrom('0', '253402300799', '253402300800', '99999999999', '100000000000', '1.5', '1e12', '-1', ''),
    );
    await fc.assert(
      fc.asyncProperty(secondsArb, secondsArb, async (start, end) => {
        const path = `${accessUrl.pathname}/accounts?${new URLSearchParams({ 'start-date': start, 'end-date': end })}`;
        const response = await fetch(app.url + path, { headers: { authorization } });
        const text = await response.text();
        // The protocol's answers: the account set, or a plain-text 400 naming the parameter.
        expect([200, 400], `${path} → ${response.status} ${text.slice(0, 200)}`).toContain(response.status);
      }),
      { numRuns: 30 },
    );
  });
});
