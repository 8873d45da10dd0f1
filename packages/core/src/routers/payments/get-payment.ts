import { dataOf, PaymentSchema } from '@sandbank/schemas';
import { readPayment } from '../../domain/payments/read-payments.ts';
import { protectedProcedure } from '../../trpc.ts';
import { PaymentIdInputSchema } from './payments.schema.ts';

export const getPaymentProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/payments/{id}',
      tags: ['payments'],
      summary: 'One payment',
      description: 'The payment as it is now: its status, reason, transactions and any return.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(PaymentIdInputSchema)
  .output(dataOf(PaymentSchema))
  .query(async ({ ctx, input }) => ({ data: await readPayment(ctx.em, { userId: ctx.user.id, paymentId: input.id }) }));
