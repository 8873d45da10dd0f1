/**
 * How much one request may fire (issue 27): an advance, or a schedule's backfill, fires every item
 * due on the way, each in its own transaction (about 10 ms each here). Unbounded, 20 daily schedules
 * and a two-year advance held one request for 139 s. So the items are counted first, and more than
 * `LIMIT_DUE_ITEMS_PER_REQUEST` is 422 with the count and nothing moves: the caller advances in
 * smaller steps. (The alternative, 202 and a job to poll, would keep the request short but turn the
 * one call a test suite makes into three and a wait; a step is as easy to choose as the count shows.)
 *
 * Counted: pending transactions that settle or expire by `until`, every occurrence of the active
 * schedules due by then, and the settlement of each pending-status run that falls due by then too.
 */
import type { EntityManager } from '@sandbank/db';
import { trySubtractIsoDuration } from '../../lib/duration.ts';
import { recurrence } from '../schedules/recurrence.ts';
import { countDuePayments, countDuePending, selectDueSchedules } from './queries.ts';

/** Counts what firing everything due up to `until` would fire, stopping once past `ceiling`. */
export async function countDueItems(
  em: EntityManager,
  { userId, until, ceiling }: { userId: string; until: Date; ceiling: number },
): Promise<number> {
  let count = await countDuePending(em, { userId, until, limit: ceiling + 1 });
  // A payment's next step only: the ones after it (a settlement after its session) may fall due too, up to three.
  count += await countDuePayments(em, { userId, until, limit: ceiling + 1 });
  const schedules = await selectDueSchedules(em, userId, until);
  for (const schedule of schedules) {
    if (count > ceiling) break;
    const rule = recurrence(schedule.rrule, schedule.timezone, new Date(schedule.start_at));
    const from = new Date(schedule.next_run_at);
    count += rule.countBetween(from, until, ceiling - count);
    // A duration too long for the calendar (a row from before durations were bounded) never settles.
    const settledBy =
      schedule.status === 'pending' && schedule.settle_after && trySubtractIsoDuration(until, schedule.settle_after);
    if (settledBy) count += rule.countBetween(from, settledBy, ceiling - count);
  }
  return count;
}

/** The count for a message: exact up to the ceiling, "more than" past it. */
export const describeCount = (count: number, ceiling: number) =>
  count > ceiling ? `more than ${ceiling.toLocaleString('en')}` : count.toLocaleString('en');
