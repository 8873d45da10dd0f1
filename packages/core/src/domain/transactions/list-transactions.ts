/**
 * Transaction history, newest first (date, then id), paginated. Used by the account history and
 * the partner pull endpoint, which differ only in which accounts they read. A read hot path:
 * one indexed SQL statement mapped straight to the API shape (no entity hydration).
 */
import { type EntityManager, executeHot } from '@sandbank/db';
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
    executeHot<TransactionRow>(
      em,
      { sql: `select ${TRANSACTION_COLUMNS} from transactions where ${where} order by date desc, id desc limit ? offset ?` },
      [...params, limit, (page - 1) * limit],
    ),
    knownTotal ??
      executeHot<{ total: string }>(em, { sql: `select count(*) as total from transactions where ${where}` }, params).then(
        ([row]) => Number(row?.total ?? 0),
      ),
  ]);
  return { items: rows.map(rowToTransaction), total };
}

/**
 * How many pending and posted transactions of an owner lie in `range`, without counting the window:
 * the accounts' `transaction_count` (kept by every statement that books or voids) gives all of
 * them, and only the rows outside the window are counted and taken off. A pull's window usually
 * holds most of an owner's rows (the default is the last 90 days), so this counts few rows where
 * `count(*)` over the window counted them all on every page. Exact: the counters and the rows are
 * read in one statement, one snapshot.
 */
export async function countOwnerTransactions(
  em: EntityManager,
  { userId, range }: { userId: string; range: DateRange },
): Promise<number> {
  const params: unknown[] = [userId];
  let sql = `select (select coalesce(sum(transaction_count), 0) from accounts where user_id = ?)`;
  if (range.from) {
    sql += ` - (select count(*) from transactions where user_id = ? and status <> 'voided' and date < ?)`;
    params.push(userId, range.from.toISOString());
  }
  if (range.before) {
    sql += ` - (select count(*) from transactions where user_id = ? and status <> 'voided' and date >= ?)`;
    params.push(userId, range.before.toISOString());
  }
  const [row] = await executeHot<{ total: string }>(em, { sql: `${sql} as total` }, params);
  return Number(row?.total ?? 0);
}
