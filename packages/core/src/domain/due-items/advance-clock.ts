/**
 * `POST /v1/clock/advance` (docs/concepts/clock-and-schedules.md): move a world's clock forward by a duration or to an instant,
 * firing everything due on the way (due-items.ts). The world's clock lock makes a second advance
 * (or a reset) of the same world wait for the first; past `CLOCK_LOCK_WAIT_MS` it gets 409
 * CLOCK_ADVANCING. Different worlds advance in parallel. What would fire is counted first
 * (due-count.ts): more than `maxItems` is 422 ADVANCE_TOO_LARGE with the count.
 */
import type { EntityManager } from '@sandbank/db';
import { AppError } from '../../errors.ts';
import { addIsoDuration, tryAddIsoDuration } from '../../lib/duration.ts';
import {
  advanceTooLarge,
  beyondClockEnd,
  LATEST_CLOCK,
  MAX_ADVANCE,
  moveClockTo,
  readClock,
  withClockLock,
} from '../clock/clock.ts';
import { countDueItems, describeCount } from './due-count.ts';
import { type FiredCounts, fireDueItems } from './due-items.ts';

export interface AdvanceClockParams {
  userId: string;
  /** Exactly one: an ISO 8601 duration, or an instant. */
  by?: string | undefined;
  to?: Date | undefined;
  /** At most this many items fire in one advance (LIMIT_DUE_ITEMS_PER_REQUEST); more is 422 with the count. */
  maxItems: number;
}

export interface AdvanceResult {
  from: Date;
  now: Date;
  fired: Omit<FiredCounts, 'events'>;
  events: number;
}

export async function advanceClock(em: EntityManager, params: AdvanceClockParams): Promise<AdvanceResult> {
  return withClockLock(em, params.userId, async () => {
    const { now: from } = await readClock(em, params.userId);
    // A duration too long for the calendar (P300000Y) adds up to no instant at all: too large, too.
    const target = params.by !== undefined ? tryAddIsoDuration(from, params.by) : (params.to as Date);
    if (target !== null && target < from) {
      throw new AppError('CLOCK_BACKWARD', `The clock only moves forward; it is ${from.toISOString()} in this world`, {
        details: [{ path: 'to', message: `Must not be before ${from.toISOString()}` }],
      });
    }
    if (target === null || target > addIsoDuration(from, MAX_ADVANCE)) {
      throw advanceTooLarge(params.by !== undefined ? 'by' : 'to');
    }
    if (target > LATEST_CLOCK) throw beyondClockEnd(params.by !== undefined ? 'by' : 'to');
    // Counted before anything fires: refused, the world is as it was.
    const ceiling = params.maxItems * 10;
    const due = await countDueItems(em, { userId: params.userId, until: target, ceiling });
    if (due > params.maxItems) {
      const path = params.by !== undefined ? 'by' : 'to';
      const message = `This advance would fire ${describeCount(due, ceiling)} items; one call fires at most ${params.maxItems}: advance in smaller steps`;
      throw new AppError('ADVANCE_TOO_LARGE', message, {
        details: [{ path, message: `At most ${params.maxItems} items due on the way` }],
      });
    }
    const fired = await fireDueItems(em, { userId: params.userId, until: target, moveClock: true });
    await em.transactional((tx) => moveClockTo(tx, params.userId, target));
    const { now } = await readClock(em, params.userId);
    const { events, ...counts } = fired;
    return { from, now, fired: counts, events };
  });
}
