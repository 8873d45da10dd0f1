/**
 * The SQL of accounts read outside the unit of work (docs/architecture.md, "The schema"): one named
 * function per statement; the domain modules call these instead of writing SQL inline.
 */
import type { EntityManager } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

/** Locks one account's row (FOR NO KEY UPDATE, the lock every booking on it takes) until the transaction ends. */
export async function lockAccount(tx: EntityManager, accountId: string): Promise<void> {
  await tx.execute('select 1 from accounts where id = ? for no key update', [accountId]);
}

/** Locks every account of a user, in id order (the order every writer takes them in). */
export async function lockAccountsOfUser(tx: EntityManager, userId: string): Promise<void> {
  await tx.execute('select 1 from accounts where user_id = ? order by id for no key update', [userId]);
}

// The balance history (balance-history.ts): days local to Europe/Warsaw, like a statement's.
const BALANCE_TIME_ZONE = 'Europe/Warsaw';
const startOfDay = (day: string) => `(${day})::timestamp at time zone '${BALANCE_TIME_ZONE}'`;

/**
 * Bound parameters: accountId, userId, to, from, default span. `to` is clamped to the world's
 * today; `from` defaults to `to` − (span − 1). The range's length is checked in JavaScript after
 * (the defaults need today), before any day is generated.
 */
const BOUNDS_SQL = `
  select a.id, a.currency, b.today, b.to_day, coalesce(?::date, b.to_day - (?::int - 1)) as from_day
  from accounts a join users u on u.id = a.user_id
  cross join lateral (select (${WORLD_NOW_SQL} at time zone '${BALANCE_TIME_ZONE}')::date as today) t
  cross join lateral (select t.today, least(coalesce(?::date, t.today), t.today) as to_day) b
  where a.id = ? and a.user_id = ?`;

/**
 * The points, and the account's balances read in the same statement (one snapshot), so the last
 * point and the balance are compared on the same ledger whatever commits meanwhile.
 */
const POINTS_SQL = `
  with days as (
    select d::date as day from generate_series(?::date, ?::date, interval '1 day') d
  ), opening as (
    select coalesce(sum(t.amount), 0)::bigint as amount from transactions t
    where t.account_id = ? and t.status = 'posted' and t.posted_at < ${startOfDay('?::date')}
  ), daily as (
    -- Anything posted after the last day (only ever within the clock-skew minute past today) counts on it.
    select least((t.posted_at at time zone '${BALANCE_TIME_ZONE}')::date, ?::date) as day, sum(t.amount) as amount
    from transactions t
    where t.account_id = ? and t.status = 'posted' and t.posted_at >= ${startOfDay('?::date')}
      and (?::boolean or t.posted_at < ${startOfDay('?::date + 1')})
    group by 1
  )
  select days.day::text as day,
    ((select amount from opening) + sum(coalesce(daily.amount, 0)) over (order by days.day))::bigint::text as balance,
    a.balance::text as account_balance, a.held_amount::text as held_amount
  from days left join daily on daily.day = days.day cross join accounts a
  where a.id = ?
  order by days.day`;

export interface BalanceHistoryBounds {
  id: string;
  currency: string;
  /** `YYYY-MM-DD` each. */
  today: string;
  to_day: string;
  from_day: string;
}

/** The account (the user's), the world's today, and the range: `to` clamped to today, `from` defaulting to `span` days back. */
export async function selectBalanceHistoryBounds(
  em: EntityManager,
  params: { accountId: string; userId: string; from: string | null; to: string | null; span: number },
): Promise<BalanceHistoryBounds | undefined> {
  const [row] = await em.execute<BalanceHistoryBounds[]>(
    `select id, currency, today::text, to_day::text, from_day::text from (${BOUNDS_SQL}) x`,
    [params.from, params.span, params.to, params.accountId, params.userId],
  );
  return row;
}

export interface BalancePointRow {
  day: string;
  balance: string;
  account_balance: string;
  held_amount: string;
}

/** One row per day from `from` to `to`: the booked balance at its end, and the account's balances now (same snapshot). */
export async function selectBalancePoints(
  em: EntityManager,
  { accountId, from, to, endsToday }: { accountId: string; from: string; to: string; endsToday: boolean },
): Promise<BalancePointRow[]> {
  return em.execute<BalancePointRow[]>(POINTS_SQL, [from, to, accountId, from, to, accountId, from, endsToday, to, accountId]);
}
