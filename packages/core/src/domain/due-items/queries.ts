/**
 * The SQL of what falls due as worlds' clocks move (docs/architecture.md, "The schema"): one named
 * function per statement, written with Kysely over the generated tables (`kysely(em)`);
 * `due-count.ts` and `due-items.ts` keep the rules.
 */
import { type EntityManager, kysely, type Row } from '@sandbank/db';
import { sql } from 'kysely';
import { worldNowOf } from '../clock/queries.ts';

// `least` ignores nulls; the partial indexes on (user_id, …) serve both halves.
const DUE_AT = sql<string>`least(t.settle_at, t.expire_at)`;
const at = (instant: string) => sql<string>`${instant}::timestamptz`;

/** How many pending transactions of the user settle or expire by `until`, counted up to `limit`. */
export async function countDuePending(
  em: EntityManager,
  { userId, until, limit }: { userId: string; until: Date; limit: number },
) {
  const db = kysely(em);
  const pending = await db
    .selectFrom(
      db
        .selectFrom('transactions as t')
        .select(sql`1`.as('one'))
        .where('t.user_id', '=', userId)
        .where('t.status', '=', 'pending')
        .where((eb) => eb.or([eb('t.settle_at', 'is not', null), eb('t.expire_at', 'is not', null)]))
        .where(DUE_AT, '<=', at(until.toISOString()))
        .limit(limit)
        .as('due'),
    )
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst();
  return Number(pending?.n ?? 0);
}

export type DueScheduleRow = Pick<Row<'schedules'>, 'rrule' | 'timezone' | 'start_at' | 'settle_after'> & {
  /** Never null for an active schedule. */
  next_run_at: string;
  status: 'pending' | 'posted';
};

/** The user's active schedules with a run due by `until`. */
export function selectDueSchedules(em: EntityManager, userId: string, until: Date): Promise<DueScheduleRow[]> {
  return kysely(em)
    .selectFrom('schedules')
    .select((eb) => [
      'rrule',
      'timezone',
      'start_at',
      eb.ref('next_run_at').$castTo<string>().as('next_run_at'),
      eb.ref('status').$castTo<'pending' | 'posted'>().as('status'),
      'settle_after',
    ])
    .where('user_id', '=', userId)
    .where('state', '=', 'active')
    .where('next_run_at', '<=', at(until.toISOString()))
    .execute();
}

/** How many of the user's payments take a step by `until`, counted up to `limit`. */
export async function countDuePayments(
  em: EntityManager,
  { userId, until, limit }: { userId: string; until: Date; limit: number },
) {
  const db = kysely(em);
  const due = await db
    .selectFrom(
      db
        .selectFrom('payments as p')
        .select(sql`1`.as('one'))
        .where('p.user_id', '=', userId)
        .where('p.due_at', '<=', at(until.toISOString()))
        .limit(limit)
        .as('due'),
    )
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst();
  return Number(due?.n ?? 0);
}

export interface DueItemRow {
  kind: 'transaction' | 'schedule' | 'payment';
  id: string;
  /** PostgreSQL's timestamp text, like the columns it comes from. */
  due_at: string;
  settle_at: Row<'transactions'>['settle_at'];
  expire_at: Row<'transactions'>['expire_at'];
}

/** The user's first `limit` items due by `until` (pending transactions' settlements and expiries, schedules' runs, payments' steps), in the order they fire. */
export function selectNextDueItems(em: EntityManager, userId: string, untilIso: string, limit: number): Promise<DueItemRow[]> {
  const db = kysely(em);
  const until = at(untilIso);
  const transactions = db
    .selectFrom('transactions as t')
    .select([sql<DueItemRow['kind']>`'transaction'`.as('kind'), 't.id', DUE_AT.as('due_at'), 't.settle_at', 't.expire_at'])
    .where('t.user_id', '=', userId)
    .where('t.status', '=', 'pending')
    .where((eb) => eb.or([eb('t.settle_at', 'is not', null), eb('t.expire_at', 'is not', null)]))
    .where(DUE_AT, '<=', until);
  const schedules = db
    .selectFrom('schedules as s')
    .select([
      sql<DueItemRow['kind']>`'schedule'`.as('kind'),
      's.id',
      sql<string>`s.next_run_at`.as('due_at'),
      sql<string | null>`null`.as('settle_at'),
      sql<string | null>`null`.as('expire_at'),
    ])
    .where('s.user_id', '=', userId)
    .where('s.state', '=', 'active')
    .where('s.next_run_at', '<=', until);
  const payments = db
    .selectFrom('payments as p')
    .select([
      sql<DueItemRow['kind']>`'payment'`.as('kind'),
      'p.id',
      sql<string>`p.due_at`.as('due_at'),
      sql<string | null>`null`.as('settle_at'),
      sql<string | null>`null`.as('expire_at'),
    ])
    .where('p.user_id', '=', userId)
    .where('p.due_at', '<=', until);
  return db
    .selectFrom(transactions.unionAll(schedules).unionAll(payments).as('due'))
    .selectAll()
    .orderBy('due_at')
    .orderBy('kind', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Up to `worlds` users with something due on their own clock, the longest overdue first. */
export async function selectWorldsWithDueItems(em: EntityManager, worlds: number): Promise<string[]> {
  const db = kysely(em);
  const now = worldNowOf('u');
  const transactions = db
    .selectFrom('transactions as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.user_id', DUE_AT.as('due_at')])
    .where('t.status', '=', 'pending')
    .where((eb) => eb.or([eb('t.settle_at', 'is not', null), eb('t.expire_at', 'is not', null)]))
    .where(DUE_AT, '<=', now);
  const schedules = db
    .selectFrom('schedules as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', sql<string>`s.next_run_at`.as('due_at')])
    .where('s.state', '=', 'active')
    .where('s.next_run_at', '<=', now);
  const payments = db
    .selectFrom('payments as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.user_id', sql<string>`p.due_at`.as('due_at')])
    .where('p.due_at', '<=', now);
  const due = await db
    .selectFrom(transactions.unionAll(schedules).unionAll(payments).as('due'))
    .select('user_id')
    .groupBy('user_id')
    .orderBy(sql`min(due_at)`)
    .limit(worlds)
    .execute();
  return due.map((row) => row.user_id);
}
