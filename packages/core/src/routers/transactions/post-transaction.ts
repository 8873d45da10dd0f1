import { postTransaction } from '../../domain/transactions/transitions.ts';
import { protectedProcedure } from '../../trpc.ts';
import { PostTransactionInputSchema, TransitionOutputSchema } from './transitions.schema.ts';

export const postTransactionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/transactions/{id}/post',
      tags: ['transactions'],
      summary: 'Post a pending transaction',
      description:
        'pending → posted, keeping the id. `amount` may change it (same sign, e.g. a tip); the balance moves by the posted amount and the hold is released. Emits transaction.updated with `previous` and `changes`. Posting it again with the same amount answers it unchanged (200), also with the `ifVersion` the first post was made on, unless something else changed it since (409 VERSION_CONFLICT). A transaction booked posted (or a reversal) was never pending: posting it is 409 INVALID_TRANSITION, as is a repeat without the amount the post changed.',
    },
    errorCodes: [
      'NOT_FOUND',
      'INVALID_TRANSITION',
      'VERSION_CONFLICT',
      'ACCOUNT_CLOSED',
      'INSUFFICIENT_FUNDS',
      'BALANCE_LIMIT_EXCEEDED',
    ],
  })
  .input(PostTransactionInputSchema)
  .output(TransitionOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { transaction, balance, availableBalance } = await postTransaction(ctx.em, {
      userId: ctx.user.id,
      transactionId: input.id,
      amount: input.amount,
      ifVersion: input.ifVersion,
    });
    return { data: { transaction, balance, availableBalance } };
  });
