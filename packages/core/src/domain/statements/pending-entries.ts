/**
 * The pending side of a statement (camt.052's `PDNG` entries): transactions still pending now whose
 * date falls in the period's local days. They change no booked balance, so they stay out of the
 * statement's one balance statement.
 */
import { type EntityManager, executeHot } from '@sandbank/db';

export interface PendingEntry {
  id: string;
  externalTxnId: string;
  amount: number;
  /** The local day of the transaction's `date`. */
  valueDate: string;
  description: string;
  merchant: string | null;
  category: string | null;
}

export interface PendingRow {
  id: string;
  external_txn_id: string;
  amount: string;
  value_date: string;
  description: string;
  merchant: string | null;
  category: string | null;
}

export const PENDING_SQL = {
  name: 'statement_pending',
  sql: `select t.id, t.external_txn_id, t.amount, to_char(t.date at time zone 'Europe/Warsaw', 'YYYY-MM-DD') as value_date,
      t.description, t.merchant, t.category
    from transactions t
    where t.account_id = ? and t.status = 'pending'
      and t.date >= (?::date)::timestamp at time zone 'Europe/Warsaw'
      and t.date < (?::date + 1)::timestamp at time zone 'Europe/Warsaw'
    order by t.date, t.id`,
};

export const toPendingEntry = (row: PendingRow): PendingEntry => ({
  id: row.id,
  externalTxnId: row.external_txn_id,
  amount: Number(row.amount),
  valueDate: row.value_date,
  description: row.description,
  merchant: row.merchant,
  category: row.category,
});

export async function readPendingEntries(
  em: EntityManager,
  { accountId, from, to }: { accountId: string; from: string; to: string },
): Promise<PendingEntry[]> {
  const rows = await executeHot<PendingRow>(em, PENDING_SQL, [accountId, from, to]);
  return rows.map(toPendingEntry);
}
