/**
 * The SQL of statements (docs/architecture.md, "The schema"): one named function per statement.
 * A statement file is read in one snapshot (statement.ts): its head, its pending entries and its
 * entries' cursor run on that snapshot's connection; the pending entries alone also on the pool
 * (`executeHot`). The statements stay SQL (a snapshot's connection is not the EntityManager's); their
 * rows' table columns are typed from the generated tables (`Row`), so a migration changing one
 * breaks them.
 */
import { type EntityManager, executeHot, type Row, type Snapshot } from '@sandbank/db';
import { WORLD_NOW_SQL } from '../clock/clock.ts';

/** Statements' days are Polish banking days. */
const STATEMENT_TIME_ZONE = 'Europe/Warsaw';

/** A card payment in another currency (all three or none: the database checks it). */
export type ConversionColumns = Pick<Row<'transactions'>, 'original_amount' | 'original_currency' | 'exchange_rate'>;

type EntryColumns = ConversionColumns &
  Pick<Row<'transactions'>, 'id' | 'external_txn_id' | 'amount' | 'description' | 'merchant' | 'category'>;

export interface PendingRow extends EntryColumns {
  value_date: string;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  end_to_end_id: string | null;
}

/** A payment's other side and EndToEndId, from its `raw` (docs/concepts/payments.md); null on other transactions. */
export const PAYMENT_PARTY = `t.raw->'counterparty'->>'name' as counterparty_name, t.raw->'counterparty'->>'iban' as counterparty_iban,
      t.raw->>'endToEndId' as end_to_end_id`;

const PENDING_SQL = {
  name: 'statement_pending_v3',
  sql: `select t.id, t.external_txn_id, t.amount, to_char(t.date at time zone 'Europe/Warsaw', 'YYYY-MM-DD') as value_date,
      t.description, t.merchant, t.category, t.original_amount, t.original_currency, t.exchange_rate::text, ${PAYMENT_PARTY}
    from transactions t
    where t.account_id = ? and t.status = 'pending'
      and t.date >= (?::date)::timestamp at time zone 'Europe/Warsaw'
      and t.date < (?::date + 1)::timestamp at time zone 'Europe/Warsaw'
    order by t.date, t.id`,
};

/** The account's transactions still pending whose date falls in the local days `from`..`to`, by date. */
export async function selectPendingRows(
  em: EntityManager,
  { accountId, from, to }: { accountId: string; from: string; to: string },
): Promise<PendingRow[]> {
  return executeHot<PendingRow>(em, PENDING_SQL, [accountId, from, to]);
}

export interface HeadRow extends Pick<Row<'accounts'>, 'name' | 'currency'>, Pick<Row<'users'>, 'email'> {
  account_id: Row<'accounts'>['id'];
  now: Date | string;
  from_day: string;
  to_day: string;
  is_today: boolean;
  held: Row<'accounts'>['held_amount'];
  opening: string;
  credit_count: string;
  credit_sum: string;
  debit_count: string;
  debit_sum: string;
}

export interface EntryRow extends EntryColumns, Pick<Row<'transactions'>, 'reversal_of'> {
  booking_date: string;
  value_date: string;
  posted_at: NonNullable<Row<'transactions'>['posted_at']>;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  end_to_end_id: string | null;
}

const local = (column: string) => `to_char(${column} at time zone '${STATEMENT_TIME_ZONE}', 'YYYY-MM-DD')`;
const startOf = (day: string) => `(${day})::timestamp at time zone '${STATEMENT_TIME_ZONE}'`;
const inPeriod = (start: string, end: string) =>
  `t.status = 'posted' and t.posted_at >= ${startOf(start)} and t.posted_at < ${startOf(end)}`;

/** The account (owned by the user), its period resolved against the world's today, the opening balance and the period's totals. */
const HEAD_SQL = `with account as (
      select a.id, a.name, a.currency, a.held_amount, u.email, ${WORLD_NOW_SQL} as now
      from accounts a join users u on u.id = a.user_id where a.id = ? and a.user_id = ?
    ), today as (
      select account.*, (now at time zone '${STATEMENT_TIME_ZONE}')::date as today from account
    ), period as (
      select today.*, least(coalesce(?::date, today), today) as to_day from today
    ), bounds as (
      select period.*, coalesce(?::date, date_trunc('month', to_day)::date) as from_day from period
    )
    select b.id as account_id, b.name, b.currency, b.email, b.now, b.from_day::text, b.to_day::text,
      b.to_day = b.today as is_today, b.held_amount as held,
      (select coalesce(sum(t.amount), 0)::bigint from transactions t
        where t.account_id = b.id and t.status = 'posted' and t.posted_at < ${startOf('b.from_day')}) as opening,
      p.credit_count, p.credit_sum, p.debit_count, p.debit_sum
    from bounds b cross join lateral (
      select count(*) filter (where t.amount >= 0) as credit_count,
        coalesce(sum(t.amount) filter (where t.amount >= 0), 0)::bigint as credit_sum,
        count(*) filter (where t.amount < 0) as debit_count,
        coalesce(-sum(t.amount) filter (where t.amount < 0), 0)::bigint as debit_sum
      from transactions t where t.account_id = b.id and ${inPeriod('b.from_day', 'b.to_day + 1')}
    ) p`;

/** The period's entries, oldest posting first, as a cursor of the snapshot. */
const ENTRIES_CURSOR_SQL = `declare statement_entries no scroll cursor for
    select t.id, t.external_txn_id, t.amount, ${local('t.posted_at')} as booking_date, ${local('t.date')} as value_date,
      t.posted_at, t.description, t.merchant, t.category, t.reversal_of, t.original_amount, t.original_currency,
      t.exchange_rate::text, ${PAYMENT_PARTY}
    from transactions t
    where t.account_id = ? and ${inPeriod('?::date', '?::date + 1')}
    order by t.posted_at, t.id`;

interface PeriodParams {
  accountId: string;
  /** `YYYY-MM-DD`. */
  from: string;
  /** `YYYY-MM-DD`. */
  to: string;
}

/** The statement's head, or undefined when the account is not the user's. */
export async function selectStatementHead(
  snapshot: Snapshot,
  { accountId, userId, from, to }: { accountId: string; userId: string; from?: string | undefined; to?: string | undefined },
): Promise<HeadRow | undefined> {
  const [row] = await snapshot.query<HeadRow>(HEAD_SQL, [accountId, userId, to ?? null, from ?? null]);
  return row;
}

/** The pending entries of the period, read in the statement's snapshot. */
export function selectPendingOnSnapshot(snapshot: Snapshot, { accountId, from, to }: PeriodParams): Promise<PendingRow[]> {
  return snapshot.query<PendingRow>(PENDING_SQL.sql, [accountId, from, to]);
}

/** Declares the snapshot's `statement_entries` cursor over the period's entries. */
export async function openEntriesCursor(snapshot: Snapshot, { accountId, from, to }: PeriodParams): Promise<void> {
  await snapshot.query(ENTRIES_CURSOR_SQL, [accountId, from, to]);
}

/** The cursor's next `count` entries (fewer at its end). */
export function fetchEntries(snapshot: Snapshot, count: number): Promise<EntryRow[]> {
  return snapshot.query<EntryRow>(`fetch ${Math.trunc(count)} from statement_entries`);
}
