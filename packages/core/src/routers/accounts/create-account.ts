import { AccountSchema, dataOf } from '@sandbank/schemas';
import { createAccount } from '../../domain/accounts/accounts.ts';
import { toAccount } from '../../mappers/account.ts';
import { protectedProcedure } from '../../trpc.ts';
import { CreateAccountInputSchema } from './accounts.schema.ts';

export const createAccountProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/accounts',
      tags: ['accounts'],
      summary: 'Open an account',
      description:
        'Opens an account in `currency` (default PLN; `GET /v1/currencies` lists the supported ones) with a zero balance: ' +
        'its amounts are integers of that currency’s minor unit. Names are unique among your open accounts, ignoring case (409 ACCOUNT_NAME_TAKEN).',
      successDescription: 'The new account',
    },
    successStatus: 201,
    errorCodes: ['ACCOUNT_NAME_TAKEN'],
  })
  .input(CreateAccountInputSchema)
  .output(dataOf(AccountSchema))
  .mutation(async ({ ctx, input }) => ({
    data: toAccount(
      await createAccount(ctx.em, {
        userId: ctx.user.id,
        name: input.name,
        currency: input.currency,
        cardFxMargin: input.cardFxMargin,
        limit: ctx.deps.config.limits.openAccounts,
      }),
    ),
  }));
