import { dataOf, PaymentSchema } from '@sandbank/schemas';
import { simulatePaymentRejection, simulatePaymentReturn } from '../../domain/payments/payment-steps.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ReasonCodeInputSchema } from '../payments/payments.schema.ts';

export const simulatePaymentRejectionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/simulations/payments/{id}/reject',
      tags: ['simulations'],
      summary: 'Reject a payment now',
      description:
        'The receiving side refuses a payment that is accepted (ACTC) or in clearing (ACSP): it becomes RJCT with `reasonCode` and its hold is released. The same rejection again answers the payment as it is; a settled payment is returned instead (409 INVALID_TRANSITION).',
    },
    errorCodes: ['NOT_FOUND', 'INVALID_TRANSITION'],
  })
  .input(ReasonCodeInputSchema)
  .output(dataOf(PaymentSchema))
  .mutation(async ({ ctx, input }) => {
    const params = { userId: ctx.user.id, paymentId: input.id, reasonCode: input.reasonCode };
    return { data: (await simulatePaymentRejection(ctx.em, params)).payment };
  });

export const simulatePaymentReturnProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/simulations/payments/{id}/return',
      tags: ['simulations'],
      summary: 'Return a settled payment now',
      description:
        'A settled payment to an IBAN (ACSC) comes back: a credit reversing its debit (`reversalOf`) is booked with the reason, and the payment shows `returned`. The same return again answers the payment as it is; any other status is 409 INVALID_TRANSITION.',
    },
    errorCodes: ['NOT_FOUND', 'INVALID_TRANSITION'],
  })
  .input(ReasonCodeInputSchema)
  .output(dataOf(PaymentSchema))
  .mutation(async ({ ctx, input }) => {
    const params = { userId: ctx.user.id, paymentId: input.id, reasonCode: input.reasonCode };
    return { data: (await simulatePaymentReturn(ctx.em, params)).payment };
  });
