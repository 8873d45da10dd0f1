import { router } from '../../trpc.ts';
import { simulateTransaction } from './simulate-transaction.ts';

export const simulationsRouter = router({ transaction: simulateTransaction });
