import { simulateIncomingPayment } from '../../domain/payments/incoming-payment.ts';
import { protectedProcedure } from '../../trpc.ts';
import { IncomingPaymentInputSchema } from '../payments/payments.schema.ts';
import { SimulationOutputSchema } from './simulations.schema.ts';

export const simulateIncomingPaymentProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/simulations/incoming-payment',
      tags: ['simulations'],
      summary: 'Receive a payment from outside',
      description:
        'Credits one of your accounts from a debtor outside the world, on the scheme’s timing: express_elixir and sepa_instant post now; elixir and sepa book a pending credit that posts when the next session settles (GET /v1/payments/calendar). The debtor is on the transaction (merchant, raw.counterparty). The scheme defaults by currency (PLN elixir, EUR sepa); one that cannot carry the currency is 422 SCHEME_UNAVAILABLE.',
      successDescription: 'The credit and the balance after it',
    },
    successStatus: 201,
    errorCodes: ['NOT_FOUND', 'ACCOUNT_CLOSED', 'SCHEME_UNAVAILABLE', 'BALANCE_LIMIT_EXCEEDED'],
  })
  .input(IncomingPaymentInputSchema)
  .output(SimulationOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { transaction, balance, availableBalance } = await simulateIncomingPayment(ctx.em, { userId: ctx.user.id, ...input });
    return { data: { transaction, balance, availableBalance } };
  });
