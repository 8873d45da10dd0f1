/**
 * The statement model every statement format writes (docs/faces/statements.md): one account, one period of whole
 * days in Europe/Warsaw on the world's clock, the opening and closing booked balances, and the
 * booked entries between them — transactions by the day they posted, reversals as their own
 * entries. One SQL statement (one snapshot) reads the opening balance and the entries with their
 * running balance, so opening + Σ entries = closing holds by construction and nothing else in the
 * code base computes a statement balance.
 */
import { type EntityManager, executeHot } from '@sandbank/db';
import { AppError, notFound } from '../../errors.ts';
import { ibanOf, SANDBANK_BIC } from '../accounts/iban.ts';
import { WORLD_NOW_SQL } from '../clock/clock.ts';
import { type PendingEntry, readPendingEntries } from './pending-entries.ts';
import { checkPeriod, daysBetween, MAX_STATEMENT_DAYS, periodTooLong } from './statement-period.ts';

const STATEMENT_TIME_ZONE = 'Europe/Warsaw';

export interface StatementEntry {
  /** The transaction's id (camt `AcctSvcrRef`, OFX `FITID`, MT940 bank reference). */
  id: string;
  externalTxnId: string;
  /** Minor units, signed: negative leaves the account. */
  amount: number;
  /** The local day it posted (booking date) and the local day of its `date` (value date). */
  bookingDate: string;
  valueDate: string;
  postedAt: Date;
  description: string;
  merchant: string | null;
  category: string | null;
  reversalOf: string | null;
  /** The booked balance right after this entry. */
  balanceAfter: number;
}

export interface Statement {
  account: { id: string; name: string; currency: string; iban: string; bic: string; ownerEmail: string };
  /** Inclusive local days; `to` is never after the world's today. */
  period: { from: string; to: string };
  /** The world's now when the statement was read. */
  createdAt: Date;
  /** Booked balance at the start of `from` and at the end of `to` (or now, when `to` is today). */
  opening: number;
  closing: number;
  /** closing − the current holds when the period ends today, else closing (OFX `AVAILBAL`). */
  available: number;
  entries: StatementEntry[];
  /** Pending entries whose value date is in the period: only when asked for (camt.052). */
  pending: PendingEntry[];
}

export interface ReadStatementParams {
  userId: string;
  accountId: string;
  /** `YYYY-MM-DD`; default: the first day of `to`'s month. */
  from?: string | undefined;
  /** `YYYY-MM-DD`; default and upper bound: the world's today. */
  to?: string | undefined;
  withPending?: boolean;
}

interface Row {
  account_id: string;
  name: string;
  currency: string;
  email: string;
  now: Date | string;
  from_day: string;
  to_day: string;
  is_today: boolean;
  held: string;
  opening: string;
  id: string | null;
  external_txn_id: string;
  amount: string;
  booking_date: string;
  value_date: string;
  posted_at: Date | string;
  description: string;
  merchant: string | null;
  category: string | null;
  reversal_of: string | null;
  balance_after: string;
}

const local = (column: string) => `to_char(${column} at time zone '${STATEMENT_TIME_ZONE}', 'YYYY-MM-DD')`;
const startOf = (day: string) => `(${day})::timestamp at time zone '${STATEMENT_TIME_ZONE}'`;

/** The account (owned by the user), its period resolved against the world's today, the opening balance, then one row per entry. */
const STATEMENT_SQL = {
  name: 'statement_read',
  sql: `with account as (
      select a.id, a.name, a.currency, a.held_amount, u.email, ${WORLD_NOW_SQL} as now
      from accounts a join users u on u.id = a.user_id where a.id = ? and a.user_id = ?
    ), today as (
      select account.*, (now at time zone '${STATEMENT_TIME_ZONE}')::date as today from account
    ), period as (
      select today.*, least(coalesce(?::date, today), today) as to_day from today
    ), bounds as (
      select period.*, coalesce(?::date, date_trunc('month', to_day)::date) as from_day,
        ${startOf("coalesce(?::date, date_trunc('month', to_day)::date)")} as start_at,
        ${startOf('to_day + 1')} as end_at
      from period
    ), opening as materialized (
      select coalesce(sum(t.amount), 0)::bigint as amount from transactions t, bounds b
      where t.account_id = b.id and t.status = 'posted' and t.posted_at < b.start_at
    )
    select b.id as account_id, b.name, b.currency, b.email, b.now, b.from_day::text, b.to_day::text,
      b.to_day = b.today as is_today, b.held_amount as held, o.amount as opening,
      e.id, e.external_txn_id, e.amount, ${local('e.posted_at')} as booking_date, ${local('e.date')} as value_date,
      e.posted_at, e.description, e.merchant, e.category, e.reversal_of,
      o.amount + sum(e.amount) over (order by e.posted_at, e.id) as balance_after
    from bounds b cross join opening o
    left join lateral (
      select t.* from transactions t
      where t.account_id = b.id and t.status = 'posted' and t.posted_at >= b.start_at and t.posted_at < b.end_at
    ) e on true
    order by e.posted_at, e.id`,
};

export async function readStatement(em: EntityManager, params: ReadStatementParams): Promise<Statement> {
  const { userId, accountId, from, to } = params;
  checkPeriod(from, to);
  const rows = await executeHot<Row>(em, STATEMENT_SQL, [accountId, userId, to ?? null, from ?? null, from ?? null]);
  const head = rows[0];
  if (!head) throw notFound('Account');
  if (head.from_day > head.to_day) {
    throw new AppError('VALIDATION_ERROR', '`from` is after today in this world', {
      details: [{ path: 'from', message: `Must not be after ${head.to_day}, today in the account’s world` }],
    });
  }
  if (daysBetween(head.from_day, head.to_day) > MAX_STATEMENT_DAYS) throw periodTooLong();
  const opening = Number(head.opening);
  const entries = head.id === null ? [] : rows.map(toEntry);
  const closing = entries.at(-1)?.balanceAfter ?? opening;
  const period = { from: head.from_day, to: head.to_day };
  return {
    account: {
      id: head.account_id,
      name: head.name,
      currency: head.currency,
      iban: ibanOf(head.account_id),
      bic: SANDBANK_BIC,
      ownerEmail: head.email,
    },
    period,
    createdAt: new Date(head.now),
    opening,
    closing,
    available: head.is_today ? closing - Number(head.held) : closing,
    entries,
    pending: params.withPending ? await readPendingEntries(em, { accountId, ...period }) : [],
  };
}

function toEntry(row: Row): StatementEntry {
  return {
    id: row.id as string,
    externalTxnId: row.external_txn_id,
    amount: Number(row.amount),
    bookingDate: row.booking_date,
    valueDate: row.value_date,
    postedAt: new Date(row.posted_at),
    description: row.description,
    merchant: row.merchant,
    category: row.category,
    reversalOf: row.reversal_of,
    balanceAfter: Number(row.balance_after),
  };
}
