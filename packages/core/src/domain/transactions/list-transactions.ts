/**
 * Transaction history, newest first (date, then id), paginated. Used by an account's history, the
 * pull endpoint and SimpleFIN, which differ only in which accounts they read and how they count.
 * A read hot path: one indexed, prepared statement per page that checks the scope, counts and
 * reads the page in one round trip and one snapshot, mapped straight to the API shape.
 */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { rowToTransaction } from '../../mappers/transaction.ts';
import { type ListTransactionsParams, selectTransactionPage } from './queries/history.ts';

export type { ListTransactionsParams } from './queries/history.ts';
export { STATUS_FILTERS } from './queries/history.ts';

export interface TransactionPage {
  items: Transaction[];
  total: number;
}

/**
 * One page and its total, in one statement (one snapshot, one round trip); null when `scope` names
 * an account the user does not own.
 */
export async function readTransactionPage(em: EntityManager, params: ListTransactionsParams): Promise<TransactionPage | null> {
  const rows = await selectTransactionPage(em, params);
  const [first] = rows;
  if (!first) return null;
  return { items: first.id === null ? [] : rows.map(rowToTransaction), total: Number(first.total) };
}
