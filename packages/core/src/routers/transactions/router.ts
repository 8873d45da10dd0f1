import { router } from '../../trpc.ts';
import { getTransactionProcedure } from './get-transaction.ts';
import { listAccountTransactionsProcedure } from './list-account-transactions.ts';
import { patchTransactionProcedure } from './patch-transaction.ts';
import { postTransactionProcedure } from './post-transaction.ts';
import { reverseTransactionProcedure } from './reverse-transaction.ts';
import { syncTransactionsProcedure } from './sync-transactions.ts';
import { voidTransactionProcedure } from './void-transaction.ts';

export const transactionsRouter = router({
  getTransaction: getTransactionProcedure,
  listAccountTransactions: listAccountTransactionsProcedure,
  patchTransaction: patchTransactionProcedure,
  postTransaction: postTransactionProcedure,
  reverseTransaction: reverseTransactionProcedure,
  syncTransactions: syncTransactionsProcedure,
  voidTransaction: voidTransactionProcedure,
});
