/**
 * Transaction history, newest first (date, then id), paginated. Used by the account history and
 * the partner pull endpoint, which differ only in which accounts they read.
 */
import { type EntityManager, Transaction } from '@sandbank/db';
import type { DateRange } from '../../lib/date-range.ts';

export interface ListTransactionsInput {
  /** Either one account or every account of a user. */
  scope: { accountId: string } | { userId: string };
  range: DateRange;
  page: number;
  limit: number;
  /** The total when the caller already knows it (an account's counter for an unfiltered history). */
  knownTotal?: number;
}

export async function listTransactions(em: EntityManager, { scope, range, page, limit, knownTotal }: ListTransactionsInput) {
  const date = {
    ...(range.from ? { $gte: range.from } : {}),
    ...(range.before ? { $lt: range.before } : {}),
  };
  // Each scope has its own index: (account_id, date desc, id desc) or (user_id, date desc, id desc).
  const owner = 'accountId' in scope ? { account: scope.accountId } : { owner: scope.userId };
  const where = { ...owner, ...(Object.keys(date).length > 0 ? { date } : {}) };
  const options = { orderBy: { date: 'desc', id: 'desc' }, limit, offset: (page - 1) * limit } as const;
  if (knownTotal !== undefined) return { items: await em.find(Transaction, where, options), total: knownTotal };
  const [items, total] = await em.findAndCount(Transaction, where, options);
  return { items, total };
}
