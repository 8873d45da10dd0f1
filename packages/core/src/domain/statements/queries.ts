/**
 * The SQL of statements (docs/architecture.md, "The schema"): one named function per statement.
 * The statement's own balance statement runs on its snapshot connection (statement.ts).
 */
import { type EntityManager, executeHot } from '@sandbank/db';

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

/** The account's transactions still pending whose date falls in the local days `from`..`to`, by date. */
export async function selectPendingRows(
  em: EntityManager,
  { accountId, from, to }: { accountId: string; from: string; to: string },
): Promise<PendingRow[]> {
  return executeHot<PendingRow>(em, PENDING_SQL, [accountId, from, to]);
}
