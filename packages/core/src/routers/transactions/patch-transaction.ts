import { patchTransaction } from '../../domain/transactions/transitions.ts';
import { protectedProcedure } from '../../trpc.ts';
import { PatchTransactionInputSchema, TransitionOutputSchema } from './transitions.schema.ts';

export const patchTransactionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/v1/transactions/{id}',
      tags: ['transactions'],
      summary: 'Clean up a transaction (description, merchant, category)',
      description:
        'What a bank does to a card payment after the fact. Any status but voided. Emits transaction.updated with `previous` and `changes` when something changed; the same values again change nothing (200), also with the `ifVersion` the first patch was made on, unless something else changed the transaction since (409 VERSION_CONFLICT).',
    },
    errorCodes: ['NOT_FOUND', 'INVALID_TRANSITION', 'VERSION_CONFLICT'],
  })
  .input(PatchTransactionInputSchema)
  .output(TransitionOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { transaction, balance, availableBalance } = await patchTransaction(ctx.em, {
      userId: ctx.user.id,
      transactionId: input.id,
      description: input.description,
      merchant: input.merchant,
      category: input.category,
      ifVersion: input.ifVersion,
    });
    return { data: { transaction, balance, availableBalance } };
  });
