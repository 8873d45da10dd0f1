/** The pull endpoint's days: `from`/`to` are whole UTC days, inclusive; by default the last 90 days. */
import { type DateRange, toDateRange } from '../../lib/date-range.ts';
import { EARLIEST_INSTANT } from '../../lib/timestamps.ts';

const DEFAULT_PULL_DAYS = 90;
const DAY_MS = 86_400_000;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Without `from`, the range starts 89 days before `to` (or the UTC day of `now`, the owner's world's
 * now), so it spans 90 whole days including that last one, or from 0001-01-01 when that is nearer.
 * Without `to`, it has no upper bound (no transaction lies in the world's future).
 */
export function pullRange(from: string | undefined, to: string | undefined, now: Date): DateRange {
  const last = to ? new Date(`${to}T00:00:00.000Z`) : new Date(`${dayOf(now)}T00:00:00.000Z`);
  const first = from ?? dayOf(new Date(Math.max(EARLIEST_INSTANT, last.getTime() - (DEFAULT_PULL_DAYS - 1) * DAY_MS)));
  return toDateRange(first, to);
}
