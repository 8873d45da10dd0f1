import { voidTransaction } from '../../domain/transactions/transitions.ts';
import { protectedProcedure } from '../../trpc.ts';
import { TransitionOutputSchema, VoidTransactionInputSchema } from './transitions.schema.ts';

export const voidTransactionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/transactions/{id}/void',
      tags: ['transactions'],
      summary: 'Void a pending transaction',
      description:
        'pending → voided: the hold is released and the transaction leaves the default history. Emits transaction.removed with reason `voided`. Voiding it again answers it unchanged (200), also with the `ifVersion` the first void was made on; a posted one is 409 INVALID_TRANSITION (reverse it instead).',
    },
    errorCodes: ['NOT_FOUND', 'INVALID_TRANSITION', 'VERSION_CONFLICT'],
  })
  .input(VoidTransactionInputSchema)
  .output(TransitionOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { transaction, balance, availableBalance } = await voidTransaction(ctx.em, {
      userId: ctx.user.id,
      transactionId: input.id,
      ifVersion: input.ifVersion,
    });
    return { data: { transaction, balance, availableBalance } };
  });
