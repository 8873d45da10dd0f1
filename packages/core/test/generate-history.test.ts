/**
 * A generated history is the same whatever the hour it is applied at (issue 35): the pending card
 * payments of its last two days are all still pending at the instant it is generated for, so a
 * scenario gives the same number of pending payments in the morning, in the evening, across
 * midnight and on the days the clocks change.
 */
import { describe, expect, it } from 'vitest';
import { generateHistory } from '../src/domain/scenarios/generate-history.ts';
import { PROFILES } from '../src/domain/scenarios/profiles.ts';
import { addIsoDuration } from '../src/lib/duration.ts';

const HOUR_MS = 3_600_000;
/** Hours after the Warsaw day's midnight (CET) at which to generate: both sides of each midnight and DST change. */
const HOURS = [-1 / 60, 1 / 60, 1.99, 2.01, 3.01, 9, 15, 20.5, 22.99, 23.01];
/** Days around midnights, both DST changes of 2027 in Warsaw, a month's end and 29 February. */
const DAYS = ['2026-11-25', '2026-12-31', '2027-03-28', '2027-10-31', '2028-02-29'];

const generate = (seed: number, profile: (typeof PROFILES)[number], now: Date) =>
  generateHistory({ seed, accountKey: 'main', profile, months: 2, openingBalance: 5_000_00, now });

describe('generateHistory at every hour', () => {
  for (const day of DAYS) {
    it(`keeps the same pending payments, all settling after now, at any hour of ${day} (Warsaw)`, { timeout: 120_000 }, () => {
      const midnight = new Date(`${day}T00:00:00+01:00`).getTime();
      for (const profile of PROFILES) {
        for (const seed of [1, 5]) {
          const counts = new Set<number>();
          for (const hour of HOURS) {
            const at = midnight + hour * HOUR_MS;
            const now = new Date(at);
            const history = generate(seed, profile, now);
            const pending = history.filter((txn) => txn.status === 'pending');
            counts.add(pending.length);
            for (const txn of history) expect(txn.date.getTime(), `${profile} ${seed} ${now.toISOString()}`).toBeLessThan(at);
            for (const txn of pending) {
              const settles = addIsoDuration(txn.date, txn.settleAfter ?? 'PT0S');
              expect(settles.getTime(), `${profile} ${seed} at ${now.toISOString()}`).toBeGreaterThan(at);
            }
          }
          expect([...counts], `${profile} seed ${seed}`).toHaveLength(1);
        }
      }
    });
  }
});
