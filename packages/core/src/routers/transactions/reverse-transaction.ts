import { reverseTransaction } from '../../domain/transactions/reverse-transaction.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ReverseTransactionInputSchema, TransitionOutputSchema } from './transitions.schema.ts';

export const reverseTransactionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/transactions/{id}/reverse',
      tags: ['transactions'],
      summary: 'Reverse a posted transaction (refund)',
      description:
        'Books a new posted transaction of the opposite sign with `reversalOf` set (all that is left by default, or a partial `amount`); the reversals of one transaction never exceed it (422 REVERSAL_EXCEEDS_ORIGINAL). Emits transaction.created for the reversal. Idempotent per `externalTxnId` (default rev_<id>_<amount>). Answers the reversal.',
      successDescription: 'The reversal and the balances after it',
    },
    successStatus: 201,
    errorCodes: [
      'NOT_FOUND',
      'INVALID_TRANSITION',
      'REVERSAL_EXCEEDS_ORIGINAL',
      'IDEMPOTENCY_CONFLICT',
      'ACCOUNT_CLOSED',
      'INSUFFICIENT_FUNDS',
      'BALANCE_LIMIT_EXCEEDED',
    ],
  })
  .input(ReverseTransactionInputSchema)
  .output(TransitionOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { transaction, balance, availableBalance, changed } = await reverseTransaction(ctx.em, {
      userId: ctx.user.id,
      transactionId: input.id,
      amount: input.amount,
      description: input.description,
      externalTxnId: input.externalTxnId,
    });
    if (!changed) ctx.response.status = 200;
    return { data: { transaction, balance, availableBalance } };
  });
