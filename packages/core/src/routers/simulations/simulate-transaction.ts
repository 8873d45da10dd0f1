import { simulateTransaction } from '../../domain/simulations/simulate-transaction.ts';
import { protectedProcedure } from '../../trpc.ts';
import { SimulateTransactionInputSchema, SimulationOutputSchema } from './simulations.schema.ts';

export const simulateTransactionProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/simulations/transaction',
      tags: ['simulations'],
      summary: 'Simulate a transaction',
      description:
        'Books a credit (amount > 0) or debit (amount < 0) on one of your open accounts and emits a transaction.created event, atomically. `status: pending` books it as pending instead: a pending debit holds its amount (availableBalance drops, balance does not) until it is posted or voided, by /v1/transactions/{id}/post or /void, or by itself after settleAfter / expireAfter. A debit larger than the available balance is 422 INSUFFICIENT_FUNDS; a closed account is 409 ACCOUNT_CLOSED. Idempotent per (accountId, externalTxnId): the same payload again answers 200 with the original and changes nothing; a different payload is 409 IDEMPOTENCY_CONFLICT. A card payment in another currency gives originalAmount and originalCurrency instead of amount: it is converted at the world’s rate for its day (Europe/Warsaw, GET /v1/fx/rates) plus the account’s cardFxMargin (a debit pays rate × (1 + margin), a refund gets rate × (1 − margin)), rounded once to the account’s minor unit, half away from zero; amount with them gives the rate explicitly. The transaction then keeps originalAmount, originalCurrency and exchangeRate.',
      successDescription: 'The new transaction and the balance after it (200 for an idempotent replay)',
    },
    successStatus: 201,
    errorCodes: ['NOT_FOUND', 'ACCOUNT_CLOSED', 'IDEMPOTENCY_CONFLICT', 'INSUFFICIENT_FUNDS', 'BALANCE_LIMIT_EXCEEDED'],
  })
  .input(SimulateTransactionInputSchema)
  .output(SimulationOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { transaction, balance, availableBalance, replayed } = await simulateTransaction(ctx.em, {
      userId: ctx.user.id,
      ...input,
    });
    if (replayed) ctx.response.status = 200;
    return { data: { transaction, balance, availableBalance } };
  });
