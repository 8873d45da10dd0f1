/**
 * The SQL of accounts read outside the unit of work (docs/architecture.md, "The schema"): one named
 * function per statement, written with Kysely over the generated tables (`kysely(em)`); the balance
 * history's two set-wise reads are Kysely `sql` templates (numbered parameters, a value named once)
 * whose table columns are typed from the generated rows.
 */
import { type EntityManager, kysely, type Row } from '@sandbank/db';
import { sql } from 'kysely';
import { worldNowOf } from '../clock/queries.ts';

/** Locks one account's row (FOR NO KEY UPDATE, the lock every booking on it takes) until the transaction ends. */
export async function lockAccount(tx: EntityManager, accountId: string): Promise<void> {
  await kysely(tx).selectFrom('accounts').select('id').where('id', '=', accountId).forNoKeyUpdate().execute();
}

/** Locks every account of a user, in id order (the order every writer takes them in). */
export async function lockAccountsOfUser(tx: EntityManager, userId: string): Promise<void> {
  await kysely(tx).selectFrom('accounts').select('id').where('user_id', '=', userId).orderBy('id').forNoKeyUpdate().execute();
}

// The balance history (balance-history.ts): days local to Europe/Warsaw, like a statement's.
const BALANCE_TIME_ZONE = sql.lit('Europe/Warsaw');
const startOfDay = (day: unknown) => sql`(${day}::date)::timestamp at time zone ${BALANCE_TIME_ZONE}`;

export type BalanceHistoryBounds = Pick<Row<'accounts'>, 'id' | 'currency'> & {
  /** `YYYY-MM-DD` each. */
  today: string;
  to_day: string;
  from_day: string;
};

/**
 * The account (the user's), the world's today, and the range: `to` clamped to today, `from`
 * defaulting to `span` days back. The range's length is checked in JavaScript after (the defaults
 * need today), before any day is generated.
 */
export async function selectBalanceHistoryBounds(
  em: EntityManager,
  {
    accountId,
    userId,
    from,
    to,
    span,
  }: { accountId: string; userId: string; from: string | null; to: string | null; span: number },
): Promise<BalanceHistoryBounds | undefined> {
  const { rows } = await sql<BalanceHistoryBounds>`
    select a.id, a.currency, b.today::text as today, b.to_day::text as to_day,
      coalesce(${from}::date, b.to_day - (${span}::int - 1))::text as from_day
    from accounts a join users u on u.id = a.user_id
    cross join lateral (select (${worldNowOf('u')} at time zone ${BALANCE_TIME_ZONE})::date as today) t
    cross join lateral (select t.today, least(coalesce(${to}::date, t.today), t.today) as to_day) b
    where a.id = ${accountId} and a.user_id = ${userId}`.execute(kysely(em));
  return rows[0];
}

export interface BalancePointRow {
  day: string;
  balance: string;
  account_balance: Row<'accounts'>['balance'];
  held_amount: Row<'accounts'>['held_amount'];
}

/**
 * One row per day from `from` to `to`: the booked balance at its end, and the account's balances
 * read in the same statement (one snapshot), so the last point and the balance are compared on the
 * same ledger whatever commits meanwhile.
 */
export async function selectBalancePoints(
  em: EntityManager,
  { accountId, from, to, endsToday }: { accountId: string; from: string; to: string; endsToday: boolean },
): Promise<BalancePointRow[]> {
  const { rows } = await sql<BalancePointRow>`
    with days as (
      select d::date as day from generate_series(${from}::date, ${to}::date, interval '1 day') d
    ), opening as (
      select coalesce(sum(t.amount), 0)::bigint as amount from transactions t
      where t.account_id = ${accountId} and t.status = 'posted' and t.posted_at < ${startOfDay(from)}
    ), daily as (
      -- Anything posted after the last day (only ever within the clock-skew minute past today) counts on it.
      select least((t.posted_at at time zone ${BALANCE_TIME_ZONE})::date, ${to}::date) as day, sum(t.amount) as amount
      from transactions t
      where t.account_id = ${accountId} and t.status = 'posted' and t.posted_at >= ${startOfDay(from)}
        and (${endsToday}::boolean or t.posted_at < (${to}::date + 1)::timestamp at time zone ${BALANCE_TIME_ZONE})
      group by 1
    )
    select days.day::text as day,
      ((select amount from opening) + sum(coalesce(daily.amount, 0)) over (order by days.day))::bigint::text as balance,
      a.balance::text as account_balance, a.held_amount::text as held_amount
    from days left join daily on daily.day = days.day cross join accounts a
    where a.id = ${accountId}
    order by days.day`.execute(kysely(em));
  return rows;
}
