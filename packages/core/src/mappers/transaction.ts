/**
 * The one Transaction mapper: the simulation, the core history, the pull endpoint and webhook
 * events all build their Transaction objects here, from the row as SQL returns it.
 */
import type { Currency, Transaction } from '@sandbank/schemas';

/** The columns of a transaction as they come from a hand-written SQL statement. */
export interface TransactionRow {
  id: string;
  account_id: string;
  external_txn_id: string;
  amount: string | number;
  currency: string;
  date: Date | string;
  description: string;
  raw: Record<string, unknown>;
}

export function rowToTransaction(row: TransactionRow): Transaction {
  return {
    id: row.id,
    externalTxnId: row.external_txn_id,
    accountId: row.account_id,
    amount: Number(row.amount),
    currency: row.currency as Currency,
    date: new Date(row.date).toISOString(),
    description: row.description,
    raw: { ...row.raw, source: String(row.raw.source) },
  };
}
