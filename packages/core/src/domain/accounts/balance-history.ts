/**
 * An account's booked balance at the end of each day, for a balance-over-time chart
 * (docs/concepts/lifecycle.md, "Balance history"). One SQL statement, so one snapshot: the days
 * come from `generate_series`, each day's posted amounts are summed, and a window sum over the
 * days adds them to the opening balance.
 *
 * The semantics are the statement's (domain/statements/statement.ts): days are local days in
 * Europe/Warsaw on the world's clock, and a transaction counts on the day it posted (`posted_at`),
 * so a pending one counts from the day it posts, and a voided one never. Pending holds are not in the
 * points: the series is the booked `balance`, not `availableBalance` (which only exists now; the
 * answer carries today's holds beside it). Today's point is the balance now: a posting dated up to
 * the clock-skew minute ahead (past midnight) is counted today, so the last point of a range that ends
 * today equals the account's `balance`, always — checked before answering.
 */
import type { EntityManager } from '@sandbank/db';
import { type BalanceHistory, DEFAULT_BALANCE_HISTORY_DAYS, MAX_BALANCE_HISTORY_DAYS } from '@sandbank/schemas';
import { AppError, notFound } from '../../errors.ts';
import { WORLD_NOW_SQL } from '../clock/clock.ts';
import { daysBetween } from '../statements/statement-period.ts';

const TIME_ZONE = 'Europe/Warsaw';
const startOf = (day: string) => `(${day})::timestamp at time zone '${TIME_ZONE}'`;

/**
 * Bound parameters: accountId, userId, to, from, default span. `to` is clamped to the world's
 * today; `from` defaults to `to` − (span − 1). The range's length is checked in JavaScript after
 * (the defaults need today), before any day is generated.
 */
const BOUNDS_SQL = `
  select a.id, a.currency, b.today, b.to_day, coalesce(?::date, b.to_day - (?::int - 1)) as from_day
  from accounts a join users u on u.id = a.user_id
  cross join lateral (select (${WORLD_NOW_SQL} at time zone '${TIME_ZONE}')::date as today) t
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
    where t.account_id = ? and t.status = 'posted' and t.posted_at < ${startOf('?::date')}
  ), daily as (
    -- Anything posted after the last day (only ever within the clock-skew minute past today) counts on it.
    select least((t.posted_at at time zone '${TIME_ZONE}')::date, ?::date) as day, sum(t.amount) as amount
    from transactions t
    where t.account_id = ? and t.status = 'posted' and t.posted_at >= ${startOf('?::date')}
      and (?::boolean or t.posted_at < ${startOf('?::date + 1')})
    group by 1
  )
  select days.day::text as day,
    ((select amount from opening) + sum(coalesce(daily.amount, 0)) over (order by days.day))::bigint::text as balance,
    a.balance::text as account_balance, a.held_amount::text as held_amount
  from days left join daily on daily.day = days.day cross join accounts a
  where a.id = ?
  order by days.day`;

interface BoundsRow {
  id: string;
  currency: string;
  today: string | Date;
  to_day: string | Date;
  from_day: string | Date;
}

export interface BalanceHistoryParams {
  userId: string;
  accountId: string;
  /** `YYYY-MM-DD`; default and upper bound: the world's today. */
  to?: string | undefined;
  /** `YYYY-MM-DD`; default: `days` back from `to`, `to` included. */
  from?: string | undefined;
  /** Instead of `from`: the range's length in days, ending at `to` (default 90). */
  days?: number | undefined;
}

interface PointRow {
  day: string;
  balance: string;
  account_balance: string;
  held_amount: string;
}

const dayText = (value: string | Date) => (typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10));

export async function getBalanceHistory(em: EntityManager, params: BalanceHistoryParams): Promise<BalanceHistory> {
  const { userId, accountId, from, to, days } = params;
  if (from !== undefined && days !== undefined) {
    throw new AppError('VALIDATION_ERROR', 'Give `from` or `days`, not both', {
      details: [{ path: 'days', message: 'Not with `from`' }],
    });
  }
  if (from && to && from > to) throw fromAfter('`to`');
  if (from && to && daysBetween(from, to) > MAX_BALANCE_HISTORY_DAYS) throw rangeTooLong();
  const [bounds] = await em.execute<BoundsRow[]>(
    `select id, currency, today::text, to_day::text, from_day::text from (${BOUNDS_SQL}) x`,
    [from ?? null, days ?? DEFAULT_BALANCE_HISTORY_DAYS, to ?? null, accountId, userId],
  );
  if (!bounds) throw notFound('Account');
  const [today, toDay, fromDay] = [dayText(bounds.today), dayText(bounds.to_day), dayText(bounds.from_day)];
  if (fromDay > toDay) throw fromAfter(`${toDay}, today in the account’s world`);
  if (daysBetween(fromDay, toDay) > MAX_BALANCE_HISTORY_DAYS) throw rangeTooLong();
  const endsToday = toDay === today;
  const rows = await em.execute<PointRow[]>(POINTS_SQL, [
    fromDay,
    toDay,
    accountId,
    fromDay,
    toDay,
    accountId,
    fromDay,
    endsToday,
    toDay,
    accountId,
  ]);
  if (rows.length === 0) throw notFound('Account'); // removed in between (a reset)
  const points = rows.map((row) => ({ date: row.day, balance: Number(row.balance) }));
  const balance = Number(rows[0]?.account_balance);
  const heldAmount = Number(rows[0]?.held_amount);
  // The ledger's invariant (balance = Σ posted) makes these equal; a difference is a bug, never an answer.
  if (endsToday && points.at(-1)?.balance !== balance) {
    throw new Error(`Balance history does not reconcile: today's point is ${points.at(-1)?.balance}, the balance ${balance}`);
  }
  return {
    accountId: bounds.id,
    currency: bounds.currency as BalanceHistory['currency'],
    timeZone: TIME_ZONE,
    from: fromDay,
    to: toDay,
    points,
    balance,
    heldAmount,
    availableBalance: balance - heldAmount,
  };
}

const fromAfter = (what: string) =>
  new AppError('VALIDATION_ERROR', '`from` is after the end of the range', {
    details: [{ path: 'from', message: `Must not be after ${what}` }],
  });

const rangeTooLong = () =>
  new AppError('PERIOD_TOO_LONG', `A balance history covers at most ${MAX_BALANCE_HISTORY_DAYS} days`, {
    details: [{ path: 'from', message: `At most ${MAX_BALANCE_HISTORY_DAYS} days before \`to\`` }],
  });
