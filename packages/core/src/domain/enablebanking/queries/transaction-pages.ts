/**
 * The SQL of the Enable Banking face's transaction pages (../transaction-pages.ts): a period's booked
 * entries in posting order after a (posted_at, id), its pending ones after a (date, id), and the booked
 * balance before the period. Each row carries its position as PostgreSQL prints it, so the next page
 * starts exactly after it (a JavaScript Date would drop the microseconds).
 */
import { type EntityManager, executeHot } from '@sandbank/db';
import { type EntryRow, PAYMENT_PARTY, type PendingRow } from '../../statements/queries.ts';

const local = (column: string) => `to_char(${column} at time zone 'Europe/Warsaw', 'YYYY-MM-DD')`;
/** Values in this order: account, from, to, then the position's two (when after one), then the limit. */
const IN_PERIOD = (column: string) =>
  `${column} >= (?::date)::timestamp at time zone 'Europe/Warsaw' and ${column} < (?::date + 1)::timestamp at time zone 'Europe/Warsaw'`;

const bookedSql = (after: boolean) => ({
  name: after ? 'eb_booked_after_v1' : 'eb_booked_first_v1',
  sql: `select t.id, t.external_txn_id, t.amount, ${local('t.posted_at')} as booking_date, ${local('t.date')} as value_date,
      t.posted_at, t.posted_at::text as position, t.description, t.merchant, t.category, t.reversal_of, t.original_amount,
      t.original_currency, t.exchange_rate::text, ${PAYMENT_PARTY}
    from transactions t
    where t.account_id = ? and t.status = 'posted' and ${IN_PERIOD('t.posted_at')}
      ${after ? 'and (t.posted_at, t.id) > (?::timestamptz, ?::uuid)' : ''}
    order by t.posted_at, t.id
    limit ?`,
});

const pendingSql = (after: boolean) => ({
  name: after ? 'eb_pending_after_v1' : 'eb_pending_first_v1',
  sql: `select t.id, t.external_txn_id, t.amount, ${local('t.date')} as value_date, t.date::text as position,
      t.description, t.merchant, t.category, t.original_amount, t.original_currency, t.exchange_rate::text, ${PAYMENT_PARTY}
    from transactions t
    where t.account_id = ? and t.status = 'pending' and ${IN_PERIOD('t.date')}
      ${after ? 'and (t.date, t.id) > (?::timestamptz, ?::uuid)' : ''}
    order by t.date, t.id
    limit ?`,
});

const OPENING_SQL = {
  name: 'eb_opening_v1',
  sql: `select coalesce(sum(t.amount), 0)::text as opening from transactions t
    where t.account_id = ? and t.status = 'posted' and t.posted_at < (?::date)::timestamp at time zone 'Europe/Warsaw'`,
};

/** A row's place in its order: its posted_at (booked) or date (pending) as text. */
export interface Positioned {
  position: string;
}

interface PeriodAfter {
  accountId: string;
  from: string;
  to: string;
  /** The previous row's position and id; null from the period's start. */
  after: { at: string; id: string } | null;
  limit: number;
}

const valuesOf = ({ accountId, from, to, after, limit }: PeriodAfter) => [
  accountId,
  from,
  to,
  ...(after ? [after.at, after.id] : []),
  limit,
];

/** Up to `limit` booked entries of the period after `after`, oldest posting first. */
export function selectBookedAfter(em: EntityManager, params: PeriodAfter): Promise<(EntryRow & Positioned)[]> {
  return executeHot<EntryRow & Positioned>(em, bookedSql(params.after !== null), valuesOf(params));
}

/** Up to `limit` pending entries whose date is in the period, after `after`, by date. */
export function selectPendingAfter(em: EntityManager, params: PeriodAfter): Promise<(PendingRow & Positioned)[]> {
  return executeHot<PendingRow & Positioned>(em, pendingSql(params.after !== null), valuesOf(params));
}

/** The booked balance at the start of the local day `from` (minor units, as text). */
export async function selectOpeningBalance(em: EntityManager, accountId: string, from: string): Promise<string> {
  const [row] = await executeHot<{ opening: string }>(em, OPENING_SQL, [accountId, from]);
  return row?.opening ?? '0';
}
