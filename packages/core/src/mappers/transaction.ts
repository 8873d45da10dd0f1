/**
 * The one Transaction mapper: the simulation, the transitions, the core history, the pull endpoint
 * and webhook events all build their Transaction objects here, from the row as SQL returns it.
 */
import type { Category, Currency, Transaction, TransactionStatus } from '@sandbank/schemas';
import { isoTimestamp } from '../lib/timestamps.ts';

/** The columns every statement returns for a transaction (`t.`-qualified variant below). */
export const TRANSACTION_COLUMNS =
  'id, account_id, external_txn_id, amount, currency, date, description, raw, status, posted_at, version, merchant, category, reversal_of, original_amount, original_currency, exchange_rate, payment_id, counterpart_transaction_id';

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
  status: TransactionStatus;
  posted_at: Date | string | null;
  version: number | string;
  merchant: string | null;
  category: string | null;
  reversal_of: string | null;
  /** A card payment in another currency (all three or none): what the merchant charged, and the rate it was converted at. */
  original_amount?: string | number | null;
  original_currency?: string | null;
  exchange_rate?: string | null;
  /** Absent on rows built in JavaScript before they are stored (a simulation, a reversal): null. */
  payment_id?: string | null | undefined;
  counterpart_transaction_id?: string | null | undefined;
}

export function rowToTransaction(row: TransactionRow): Transaction {
  return {
    id: row.id,
    externalTxnId: row.external_txn_id,
    accountId: row.account_id,
    amount: Number(row.amount),
    currency: row.currency as Currency,
    date: isoTimestamp(row.date),
    description: row.description,
    raw: { ...row.raw, source: String(row.raw.source) },
    status: row.status,
    postedAt: row.posted_at === null ? null : isoTimestamp(row.posted_at),
    version: Number(row.version),
    merchant: row.merchant,
    category: row.category as Category | null,
    reversalOf: row.reversal_of,
    // Only a converted transaction has them: every other answer stays as it always was, byte for byte.
    ...(row.original_currency
      ? {
          originalAmount: Number(row.original_amount),
          originalCurrency: row.original_currency as Currency,
          exchangeRate: String(row.exchange_rate),
        }
      : {}),
    // Only on a payment's transactions: every other transaction keeps the shape it always had.
    ...(row.payment_id ? { paymentId: row.payment_id } : {}),
    ...(row.counterpart_transaction_id ? { counterpartTransactionId: row.counterpart_transaction_id } : {}),
  };
}
