import { router } from '../../trpc.ts';
import { simulateTransactionProcedure } from './simulate-transaction.ts';

export const simulationsRouter = router({
  simulateTransaction: simulateTransactionProcedure,
});
