/**
 * Transaction history, newest first (date, then id), paginated. Used by the account history and
 * the partner pull endpoint, which differ only in which accounts they read. A read hot path:
 * one indexed SQL statement mapped straight to the API shape (no entity hydration).
 */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import type { DateRange } from '../../lib/date-range.ts';
import { rowToTransaction, type TransactionRow } from '../../mappers/transaction.ts';

export interface ListTransactionsInput {
  /** Either one account or every account of a user. */
  scope: { accountId: string } | { userId: string };
  range: DateRange;
  page: number;
  limit: number;
  /** The total when the caller already knows it (an account's counter for an unfiltered history). */
  knownTotal?: number;
}

export async function listTransactions(
  em: EntityManager,
  { scope, range, page, limit, knownTotal }: ListTransactionsInput,
): Promise<{ items: Transaction[]; total: number }> {
  // Each scope has its own index: (account_id, date desc, id desc) or (user_id, date desc, id desc).
  const conditions = ['accountId' in scope ? 'account_id = ?' : 'user_id = ?'];
  const params: unknown[] = ['accountId' in scope ? scope.accountId : scope.userId];
  if (range.from) {
    conditions.push('date >= ?');
    params.push(range.from.toISOString());
  }
  if (range.before) {
    conditions.push('date < ?');
    params.push(range.before.toISOString());
  }
  const where = conditions.join(' and ');
  const [rows, total] = await Promise.all([
    em.execute<TransactionRow[]>(
      `select id, account_id, external_txn_id, amount, currency, date, description, raw
         from transactions where ${where} order by date desc, id desc limit ? offset ?`,
      [...params, limit, (page - 1) * limit],
    ),
    knownTotal ??
      em
        .execute<{ total: string }[]>(`select count(*) as total from transactions where ${where}`, params)
        .then(([row]) => Number(row?.total ?? 0)),
  ]);
  return { items: rows.map(rowToTransaction), total };
}
