/** One transaction of the caller, by id, as it is now; another user's (or a missing) one is 404. */
import type { EntityManager } from '@sandbank/db';
import type { Transaction } from '@sandbank/schemas';
import { notFound } from '../../errors.ts';
import { rowToTransaction, TRANSACTION_COLUMNS, type TransactionRow } from '../../mappers/transaction.ts';

export async function readTransaction(em: EntityManager, userId: string, transactionId: string): Promise<Transaction> {
  const [row] = await em.execute<TransactionRow[]>(
    `select ${TRANSACTION_COLUMNS} from transactions where id = ? and user_id = ?`,
    [transactionId, userId],
  );
  if (!row) throw notFound('Transaction');
  return rowToTransaction(row);
}
