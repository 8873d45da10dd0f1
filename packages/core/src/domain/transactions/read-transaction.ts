/** One transaction of the caller, by id, as it is now; another user's (or a missing) one is 404. */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { notFound } from '../../errors.ts';
import { rowToTransaction } from '../../mappers/transaction.ts';
import { selectTransaction } from './queries/lifecycle.ts';

export async function readTransaction(em: EntityManager, userId: string, transactionId: string): Promise<Transaction> {
  const row = await selectTransaction(em, userId, transactionId);
  if (!row) throw notFound('Transaction');
  return rowToTransaction(row);
}
