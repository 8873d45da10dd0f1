/**
 * The Enable Banking face's pages of an account's transactions (docs/faces/enablebanking.md): the booked
 * entries of whole Warsaw days `from`…`to`, oldest posting first, then the pending ones whose value date
 * is in them. A page starts after a position — the last entry of the page before: its (posted_at, id)
 * and the booked balance right after it, or a pending entry's (date, id) — so every page is one range of
 * an index (`transactions_posting_order_idx`, the history's for pending ones), whatever its depth. The
 * balance before a period is a sum over that index alone; later pages carry it forward.
 */
import { type EntityManager, executeHot } from '@sandbank/db';
import { conversionOf } from '../statements/entry-conversion.ts';
import { type PendingEntry, partyOf, toPendingEntry } from '../statements/pending-entries.ts';
import { type EntryRow, PAYMENT_PARTY, type PendingRow } from '../statements/queries.ts';
import type { StatementEntry } from '../statements/statement.ts';

/** Where a page starts: after a booked entry (with the balance after it) or after a pending one. */
export type PagePosition =
  | { phase: 'booked'; postedAt: string; id: string; balance: bigint }
  | { phase: 'pending'; date: string; id: string };

export type PageEntry =
  | { status: 'booked'; entry: StatementEntry; position: PagePosition }
  | { status: 'pending'; entry: PendingEntry; position: PagePosition };

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

export interface TransactionPageParams {
  accountId: string;
  /** Inclusive local days `YYYY-MM-DD`, already checked and pinned by the caller. */
  from: string;
  to: string;
  booked: boolean;
  pending: boolean;
  /** The previous page's last entry; null for the first page. */
  after: PagePosition | null;
  /** At most this many entries. */
  limit: number;
}

/** Up to `limit` entries after `after`: booked ones in posting order, then pending ones; each with its position. */
export async function readTransactionPage(em: EntityManager, params: TransactionPageParams): Promise<PageEntry[]> {
  const { accountId, from, to, after, limit } = params;
  const out: PageEntry[] = [];
  if (params.booked && after?.phase !== 'pending') {
    let balance = after ? after.balance : await openingBalance(em, accountId, from);
    const keyset = after ? [after.postedAt, after.id] : [];
    const rows = await executeHot<EntryRow & { position: string }>(em, bookedSql(after !== null), [
      accountId,
      from,
      to,
      ...keyset,
      limit,
    ]);
    for (const row of rows) {
      balance += BigInt(row.amount);
      out.push({
        status: 'booked',
        entry: toBookedEntry(row, balance),
        position: { phase: 'booked', postedAt: row.position, id: row.id, balance },
      });
    }
  }
  if (params.pending && out.length < limit) {
    const keyset = after?.phase === 'pending' ? [after.date, after.id] : [];
    const rows = await executeHot<PendingRow & { position: string }>(em, pendingSql(keyset.length > 0), [
      accountId,
      from,
      to,
      ...keyset,
      limit - out.length,
    ]);
    for (const row of rows) {
      out.push({ status: 'pending', entry: toPendingEntry(row), position: { phase: 'pending', date: row.position, id: row.id } });
    }
  }
  return out;
}

async function openingBalance(em: EntityManager, accountId: string, from: string): Promise<bigint> {
  const [row] = await executeHot<{ opening: string }>(em, OPENING_SQL, [accountId, from]);
  return BigInt(row?.opening ?? '0');
}

function toBookedEntry(row: EntryRow, balanceAfter: bigint): StatementEntry {
  return {
    id: row.id,
    externalTxnId: row.external_txn_id,
    amount: Number(row.amount),
    bookingDate: row.booking_date,
    valueDate: row.value_date,
    postedAt: new Date(row.posted_at),
    description: row.description,
    merchant: row.merchant,
    category: row.category,
    reversalOf: row.reversal_of,
    counterparty: partyOf(row),
    endToEndId: row.end_to_end_id,
    balanceAfter: Number(balanceAfter),
    conversion: conversionOf(row),
  };
}
