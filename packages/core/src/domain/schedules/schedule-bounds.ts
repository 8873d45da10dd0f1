/**
 * The bounds of schedules (issue 27): at most `LIMIT_SCHEDULES_PER_ACCOUNT` schedules that are not
 * ended on one account (422 LIMIT_EXCEEDED), and a backfill that fires at most
 * `LIMIT_DUE_ITEMS_PER_REQUEST` items in the request that creates the schedule (422 LIMIT_EXCEEDED
 * at `startAt`, with the count). Unbounded, 105 daily schedules were accepted on one account and a
 * schedule started two years back booked 730 runs in one request.
 */
import type { EntityManager } from '@sandbank/db';
import { AppError } from '../../errors.ts';
import { trySubtractIsoDuration } from '../../lib/duration.ts';
import { lockAccount } from '../accounts/queries.ts';
import { describeCount } from '../due-items/due-count.ts';
import { countLiveSchedulesOfAccount } from './queries.ts';
import { recurrence } from './recurrence.ts';

/**
 * Throws LIMIT_EXCEEDED unless one more schedule fits on the account. Call it inside the inserting
 * transaction: it locks the account row (FOR NO KEY UPDATE, the order every writer takes it in), so
 * two creations on one account run one after the other and the second counts the first.
 */
export async function checkScheduleLimit(tx: EntityManager, { accountId, limit }: { accountId: string; limit: number }) {
  await lockAccount(tx, accountId);
  const count = await countLiveSchedulesOfAccount(tx, accountId);
  if (count + 1 > limit) {
    throw new AppError('LIMIT_EXCEEDED', `The account has ${count} schedules; the limit is ${limit}`, {
      details: [{ path: 'schedules', message: `At most ${limit} schedules (active or paused) per account` }],
    });
  }
}

export interface BackfillShape {
  rrule: string;
  timezone: string;
  startAt: Date;
  status: 'pending' | 'posted';
  settleAfter: string | null;
}

/** Throws LIMIT_EXCEEDED when starting at `startAt` would fire more than `limit` items up to `now`. */
export function checkBackfill(schedule: BackfillShape, now: Date, limit: number): void {
  const ceiling = limit * 10;
  const rule = recurrence(schedule.rrule, schedule.timezone, schedule.startAt);
  let count = rule.countThrough(now, ceiling);
  // A pending run settles on its own later; one that settles by now fires in the same request.
  const settledBy = schedule.status === 'pending' && schedule.settleAfter && trySubtractIsoDuration(now, schedule.settleAfter);
  if (settledBy && count <= ceiling) count += rule.countThrough(settledBy, ceiling - count);
  if (count > limit) {
    const message = `Starting at startAt would fire ${describeCount(count, ceiling)} past runs and settlements at once; one request fires at most ${limit}`;
    throw new AppError('LIMIT_EXCEEDED', message, {
      details: [{ path: 'startAt', message: `At most ${limit} past items; start later, or create it paused` }],
    });
  }
}
