/**
 * Transaction history, newest first (date, then id), paginated. Used by the account history and
 * the partner pull endpoint, which differ only in which accounts they read. A read hot path:
 * one indexed SQL statement mapped straight to the API shape (no entity hydration).
 */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { z } from 'zod';
import type { DateRange } from '../../lib/date-range.ts';
import { rowToTransaction, TRANSACTION_COLUMNS, type TransactionRow } from '../../mappers/transaction.ts';

/** `status` of history and pull: pending and posted by default (what a budget shows), or one status, or all. */
export const StatusFilterSchema = z
  .enum(['pending', 'posted', 'voided', 'all'])
  .optional()
  .meta({ description: 'pending, posted, voided or all; default: pending and posted' });
type StatusFilter = z.infer<typeof StatusFilterSchema>;

export interface ListTransactionsParams {
  /** Either one account or every account of a user. */
  scope: { accountId: string } | { userId: string };
  range: DateRange;
  page: number;
  limit: number;
  status?: StatusFilter;
  /** The total when the caller already knows it (an account's counter for an unfiltered history). */
  knownTotal?: number;
}

export async function listTransactions(
  em: EntityManager,
  { scope, range, page, limit, status, knownTotal }: ListTransactionsParams,
): Promise<{ items: Transaction[]; total: number }> {
  // Each scope has its own index: (account_id, date desc, id desc) or (user_id, date desc, id desc).
  const conditions = ['accountId' in scope ? 'account_id = ?' : 'user_id = ?'];
  const params: unknown[] = ['accountId' in scope ? scope.accountId : scope.userId];
  if (status === undefined) conditions.push(`status <> 'voided'`);
  else if (status !== 'all') {
    conditions.push('status = ?');
    params.push(status);
  }
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
      `select ${TRANSACTION_COLUMNS}
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
