import { dataOf, PaymentSchema } from '@sandbank/schemas';
import { cancelPayment } from '../../domain/payments/payment-steps.ts';
import { protectedProcedure } from '../../trpc.ts';
import { PaymentIdInputSchema } from './payments.schema.ts';

export const cancelPaymentProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/payments/{id}/cancel',
      tags: ['payments'],
      summary: 'Cancel a payment before its session',
      description:
        'A payment waiting for its clearing session (ACTC) becomes CANC and its hold is released. Once its session has begun, or for any other status, 409 INVALID_TRANSITION. Cancelling a cancelled payment answers it as it is.',
    },
    errorCodes: ['NOT_FOUND', 'INVALID_TRANSITION'],
  })
  .input(PaymentIdInputSchema)
  .output(dataOf(PaymentSchema))
  .mutation(async ({ ctx, input }) => ({
    data: (await cancelPayment(ctx.em, { userId: ctx.user.id, paymentId: input.id })).payment,
  }));
