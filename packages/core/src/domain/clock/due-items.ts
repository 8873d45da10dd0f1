/**
 * Everything that falls due in a world as its clock moves (docs/concepts/clock-and-schedules.md): schedule occurrences and
 * pending transactions that settle or expire. They fire one at a time in due-time order (ties:
 * settlements and expiries before schedule runs, then by id), each effective at its own due time
 * and each in its own database transaction together with the clock reaching that time. A crash
 * between two items leaves a consistent world: everything due up to the clock's now has fired,
 * nothing after it; running again continues where it stopped, and no item can fire twice (a
 * schedule run is keyed by (schedule, n), a transition does nothing to a row that moved on).
 *
 * Callers hold the world's clock lock (clock.ts), so one pass per world runs at a time.
 */
import type { EntityManager } from '@sandbank/db';
import { runScheduleOccurrence } from '../schedules/run-occurrence.ts';
import { settleDueTransaction } from '../transactions/settle-due.ts';
import { moveClockTo, tryClockLock, userNow, WORLD_NOW_SQL } from './clock.ts';

export interface FiredCounts {
  scheduled: number;
  settled: number;
  expired: number;
  /** Events written by what fired. */
  events: number;
}

interface DueItem {
  kind: 'transaction' | 'schedule';
  id: string;
  due_at: Date | string;
  settle_at: Date | string | null;
  expire_at: Date | string | null;
}

// `least` ignores nulls; the partial indexes on (user_id, …) serve both halves.
const NEXT_DUE = `
select * from (
  select 'transaction' as kind, t.id, least(t.settle_at, t.expire_at) as due_at, t.settle_at, t.expire_at
    from transactions t
   where t.user_id = ? and t.status = 'pending' and (t.settle_at is not null or t.expire_at is not null)
     and least(t.settle_at, t.expire_at) <= ?::timestamptz
  union all
  select 'schedule', s.id, s.next_run_at, null, null
    from schedules s
   where s.user_id = ? and s.state = 'active' and s.next_run_at <= ?::timestamptz
) due
order by due_at, kind desc, id
limit 1`;

const asDate = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * Fires everything due in one world up to `until`, in due-time order. With `moveClock`, each item's
 * transaction also moves the world's clock to its due time (an advance); the worker's pass on wall
 * time leaves the clock alone (it is there already).
 */
export async function fireDueItems(
  em: EntityManager,
  { userId, until, moveClock }: { userId: string; until: Date; moveClock: boolean },
): Promise<FiredCounts> {
  const fired: FiredCounts = { scheduled: 0, settled: 0, expired: 0, events: 0 };
  const untilIso = until.toISOString();
  let previous = '';
  for (;;) {
    const [item] = await em.execute<DueItem[]>(NEXT_DUE, [userId, untilIso, userId, untilIso]);
    if (!item) return fired;
    const dueAt = new Date(item.due_at);
    // Every item leaves the due set when it fires; one that stays would loop forever.
    const key = `${item.kind}:${item.id}:${dueAt.toISOString()}`;
    if (key === previous) throw new Error(`due item ${key} did not move when fired`);
    previous = key;
    await em.transactional(async (tx) => {
      if (item.kind === 'schedule') {
        const outcome = await runScheduleOccurrence(tx, { scheduleId: item.id, dueAt });
        if (outcome.kind !== 'skipped') fired.scheduled += 1;
        if (outcome.kind === 'booked') fired.events += outcome.events;
      } else {
        const due = { userId, transactionId: item.id, settleAt: asDate(item.settle_at), expireAt: asDate(item.expire_at) };
        const outcome = await settleDueTransaction(tx, due, until);
        if (outcome !== 'unchanged') {
          fired[outcome] += 1;
          fired.events += 1;
        }
      }
      if (moveClock) await moveClockTo(tx, userId, dueAt);
    });
  }
}

/** Worlds with something due by their own clock, oldest due first. */
const WORLDS_WITH_DUE_ITEMS = `
select user_id from (
  select t.user_id, least(t.settle_at, t.expire_at) as due_at
    from transactions t join users u on u.id = t.user_id
   where t.status = 'pending' and (t.settle_at is not null or t.expire_at is not null)
     and least(t.settle_at, t.expire_at) <= ${WORLD_NOW_SQL}
  union all
  select s.user_id, s.next_run_at
    from schedules s join users u on u.id = s.user_id
   where s.state = 'active' and s.next_run_at <= ${WORLD_NOW_SQL}
) due
group by user_id
order by min(due_at)
limit ?`;

/**
 * Items also fall due as wall time passes (the clock keeps moving): one pass over the worlds with
 * something due now, each up to its own now. A world whose clock lock is held (an advance or a
 * reset is running) is skipped: that advance fires its items.
 */
export async function fireDueItemsEverywhere(
  em: EntityManager,
  { worlds }: { worlds: number },
): Promise<FiredCounts & { worlds: number }> {
  const total = { scheduled: 0, settled: 0, expired: 0, events: 0, worlds: 0 };
  const due = await em.execute<{ user_id: string }[]>(WORLDS_WITH_DUE_ITEMS, [worlds]);
  for (const { user_id: userId } of due) {
    const lock = await tryClockLock(em, userId);
    if (!lock) continue;
    try {
      const fired = await fireDueItems(em, { userId, until: await userNow(em, userId), moveClock: false });
      total.scheduled += fired.scheduled;
      total.settled += fired.settled;
      total.expired += fired.expired;
      total.events += fired.events;
      total.worlds += 1;
    } finally {
      await lock.release();
    }
  }
  return total;
}
