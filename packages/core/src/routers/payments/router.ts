import { router } from '../../trpc.ts';
import { createPaymentProcedure } from './create-payment.ts';
import { getPaymentProcedure } from './get-payment.ts';
import { listPaymentsProcedure } from './list-payments.ts';

export const paymentsRouter = router({
  createPayment: createPaymentProcedure,
  listPayments: listPaymentsProcedure,
  getPayment: getPaymentProcedure,
});
