import { router } from '../../trpc.ts';
import { simulateIncomingPaymentProcedure } from './simulate-incoming-payment.ts';
import { simulatePaymentRejectionProcedure, simulatePaymentReturnProcedure } from './simulate-payment-outcome.ts';
import { simulateTransactionProcedure } from './simulate-transaction.ts';

export const simulationsRouter = router({
  simulateTransaction: simulateTransactionProcedure,
  simulateIncomingPayment: simulateIncomingPaymentProcedure,
  simulatePaymentRejection: simulatePaymentRejectionProcedure,
  simulatePaymentReturn: simulatePaymentReturnProcedure,
});
