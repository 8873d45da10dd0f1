import { router } from '../../trpc.ts';
import { cancelPaymentProcedure } from './cancel-payment.ts';
import { createPaymentProcedure } from './create-payment.ts';
import { getPaymentProcedure } from './get-payment.ts';
import { getPaymentCalendarProcedure } from './get-payment-calendar.ts';
import { listPaymentsProcedure } from './list-payments.ts';

// The calendar's literal path before /v1/payments/{id}: REST routing takes the first match.
export const paymentsRouter = router({
  createPayment: createPaymentProcedure,
  listPayments: listPaymentsProcedure,
  getPaymentCalendar: getPaymentCalendarProcedure,
  getPayment: getPaymentProcedure,
  cancelPayment: cancelPaymentProcedure,
});
