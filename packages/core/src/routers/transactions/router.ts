import { router } from '../../trpc.ts';
import { listAccountTransactions } from './list-account-transactions.ts';

export const transactionsRouter = router({ listByAccount: listAccountTransactions });
