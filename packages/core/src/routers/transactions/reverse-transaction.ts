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
        'Books a new posted transaction of the opposite sign with `reversalOf` set (all that is left by default, or a partial `amount`); the reversals of one transaction never exceed it (422 REVERSAL_EXCEEDS_ORIGINAL). Emits transaction.created for the reversal. Answers the reversal (201).\n\n' +
        'Idempotent per `externalTxnId`, whose default names the request: `rev_<id>` for a full reversal (no `amount`: all that is left), `rev_<id>_<amount>` for a partial one. Repeating a request with the same key answers 200 with the reversal it booked and changes nothing — so two identical partial requests are one reversal (a retry, as with an Idempotency-Key); to give the same amount back twice, send a distinct `externalTxnId` with each. The same key with another original, amount or description is 409 IDEMPOTENCY_CONFLICT. Identical requests racing book one reversal.\n\n' +
        "`ifVersion` is the original's version: 409 VERSION_CONFLICT unless the original is still at it. Booking a reversal leaves the original's version as it is, so a retry with the same `ifVersion` is answered 200 unless the original was changed (patched) since.",
      successDescription: 'The reversal and the balances after it',
    },
    successStatus: 201,
    errorCodes: [
      'NOT_FOUND',
      'INVALID_TRANSITION',
      'VERSION_CONFLICT',
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
      ifVersion: input.ifVersion,
    });
    if (!changed) ctx.response.status = 200;
    return { data: { transaction, balance, availableBalance } };
  });
