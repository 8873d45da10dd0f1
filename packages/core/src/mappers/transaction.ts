/** The one Transaction mapper: the core history, the pull endpoint and webhook events all use it. */
import type { Transaction as TransactionEntity } from '@sandbank/db';
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

export function toTransaction(entity: TransactionEntity): Transaction {
  return {
    id: entity.id,
    externalTxnId: entity.externalTxnId,
    accountId: entity.account.id,
    amount: entity.amount,
    currency: entity.currency as Currency,
    date: entity.date.toISOString(),
    description: entity.description,
    raw: { ...entity.raw, source: String(entity.raw.source) },
  };
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
