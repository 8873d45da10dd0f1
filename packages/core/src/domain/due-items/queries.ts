/**
 * The SQL of what falls due as worlds' clocks move (docs/architecture.md, "The schema"): typed rows
 * and one named function per statement; `due-count.ts` and `due-items.ts` keep the rules.
 */
import type { EntityManager } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

/** How many pending transactions of the user settle or expire by `until`, counted up to `limit`. */
export async function countDuePending(
  em: EntityManager,
  { userId, until, limit }: { userId: string; until: Date; limit: number },
) {
  const [pending] = await em.execute<{ n: string }[]>(
    `select count(*) as n from (select 1 from transactions t
      where t.user_id = ? and t.status = 'pending' and (t.settle_at is not null or t.expire_at is not null)
        and least(t.settle_at, t.expire_at) <= ?::timestamptz limit ?) due`,
    [userId, until.toISOString(), limit],
  );
  return Number(pending?.n ?? 0);
}

export interface DueScheduleRow {
  rrule: string;
  timezone: string;
  start_at: Date | string;
  next_run_at: Date | string;
  status: 'pending' | 'posted';
  settle_after: string | null;
}

/** The user's active schedules with a run due by `until`. */
export function selectDueSchedules(em: EntityManager, userId: string, until: Date): Promise<DueScheduleRow[]> {
  return em.execute<DueScheduleRow[]>(
    `select rrule, timezone, start_at, next_run_at, status, settle_after from schedules
      where user_id = ? and state = 'active' and next_run_at <= ?::timestamptz`,
    [userId, until.toISOString()],
  );
}

/** How many of the user's payments take a step by `until`, counted up to `limit`. */
export async function countDuePayments(
  em: EntityManager,
  { userId, until, limit }: { userId: string; until: Date; limit: number },
) {
  const [due] = await em.execute<{ n: string }[]>(
    `select count(*) as n from (select 1 from payments p where p.user_id = ? and p.due_at <= ?::timestamptz limit ?) due`,
    [userId, until.toISOString(), limit],
  );
  return Number(due?.n ?? 0);
}

export interface DueItemRow {
  kind: 'transaction' | 'schedule' | 'payment';
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
  union all
  select 'payment', p.id, p.due_at, null, null
    from payments p
   where p.user_id = ? and p.due_at <= ?::timestamptz
) due
order by due_at, kind desc, id
limit ?`;

/** The user's earliest item due by `until` (a pending transaction's settlement or expiry, a schedule's run, a payment's step), or undefined. */
/** The user's first `limit` items due by `until`, in the order they fire. */
export function selectNextDueItems(em: EntityManager, userId: string, untilIso: string, limit: number): Promise<DueItemRow[]> {
  return em.execute<DueItemRow[]>(NEXT_DUE, [userId, untilIso, userId, untilIso, userId, untilIso, limit]);
}

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
  union all
  select p.user_id, p.due_at
    from payments p join users u on u.id = p.user_id
   where p.due_at <= ${WORLD_NOW_SQL}
) due
group by user_id
order by min(due_at)
limit ?`;

/** Up to `worlds` users with something due on their own clock, the longest overdue first. */
export async function selectWorldsWithDueItems(em: EntityManager, worlds: number): Promise<string[]> {
  const due = await em.execute<{ user_id: string }[]>(WORLDS_WITH_DUE_ITEMS, [worlds]);
  return due.map((row) => row.user_id);
}
