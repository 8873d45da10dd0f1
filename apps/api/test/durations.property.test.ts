/**
 * Durations of any size, over real HTTP (fast-check): wherever an ISO 8601 duration enters — the
 * clock's `by`, a simulation's `settleAfter`, a scenario transaction's relative `at` — the answer is
 * the contract's, never a 500: within the bounds it is booked or moved, beyond them 400
 * VALIDATION_ERROR at the field's path (422 ADVANCE_TOO_LARGE for the clock), and a refusal changes
 * nothing. Durations mix small parts with parts of up to 20 digits (`P300000Y`, `PT9999…S`), which
 * luxon parses but cannot add to a date.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';
import { durationArb, YEAR_DAYS } from './input-generators.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const YEARS = YEAR_DAYS;

it('any duration gets the contract: booked or moved within the bounds, a clear refusal beyond them, never a 500', async () => {
  await fc.assert(
    fc.asyncProperty(durationArb, async ({ value, days }) => {
      const user = await app.createUser();
      const accountId = await openAccount(app, user);
      const zero = days === 0;
      // Fields take at most 40 characters: longer ones (only huge parts make them) are 400 for their length.
      const long = value.length > 40;

      // The clock: at most two years per call (422 ADVANCE_TOO_LARGE); a zero duration is no advance (400).
      const before = (await app.call('GET', '/v1/clock', { token: user.accessToken })).body.data.offsetMs;
      const moved = await app.call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by: value } });
      const expectedClock = zero || long ? 400 : days < 2 * YEARS - 2 ? 200 : days > 2 * YEARS + 2 ? 422 : moved.status;
      expect([moved.status, moved.body.details?.[0]?.path ?? 'by'], `${value} ${JSON.stringify(moved.body)}`).toEqual([
        expectedClock,
        'by',
      ]);
      const after = (await app.call('GET', '/v1/clock', { token: user.accessToken })).body.data.offsetMs;
      if (moved.status === 200) expect(after - before).toBeLessThanOrEqual(2 * 366 * 86_400_000);
      else expect(after).toBe(before);

      // A pending simulation: settleAfter at most P100Y (400 at `settleAfter` beyond, nothing booked).
      const pending = await simulate(app, user, { accountId, amount: 1_00, status: 'pending', settleAfter: value });
      const expectedPending = zero ? 400 : days < 99 * YEARS ? 201 : days > 101 * YEARS ? 400 : pending.status;
      expect(pending.status, `${value} ${JSON.stringify(pending.body)}`).toBe(expectedPending);
      if (pending.status === 400) expect(pending.body.details?.[0]?.path).toBe('settleAfter');

      // A scenario transaction `at` -value: at most -P100Y back (zero is now).
      const at = `-${value}`;
      const scenario = {
        version: 1,
        seed: 1,
        accounts: [{ key: 'a', name: 'A', transactions: [{ at, amount: 1, description: '' }] }],
      };
      const applied = await app.call('POST', '/v1/scenarios/apply', { token: user.accessToken, body: { scenario } });
      const expectedApply = days < 99 * YEARS ? 200 : days > 101 * YEARS ? 400 : applied.status;
      expect(applied.status, `${at} ${JSON.stringify(applied.body)}`).toBe(expectedApply);
      if (applied.status === 400) expect(applied.body.details?.[0]?.path).toBe('scenario.accounts.0.transactions.0.at');

      const { rows } = await app.db.query('select count(*)::int as n from transactions where user_id = $1', [user.id]);
      expect(rows[0].n).toBe((pending.status === 201 ? 1 : 0) + (applied.status === 200 ? 1 : 0));
    }),
    { numRuns: 40 },
  );
});
