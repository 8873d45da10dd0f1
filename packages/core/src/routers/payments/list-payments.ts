import { listOf, PaymentSchema } from '@sandbank/schemas';
import { listPayments } from '../../domain/payments/read-payments.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ListPaymentsInputSchema } from './payments.schema.ts';

export const listPaymentsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/payments',
      tags: ['payments'],
      summary: 'Your payments',
      description: 'Newest first; `accountId` keeps those from or to one account, `status` one status.',
    },
  })
  .input(ListPaymentsInputSchema)
  .output(listOf(PaymentSchema))
  .query(({ ctx, input }) => listPayments(ctx.em, { userId: ctx.user.id, ...input }));
