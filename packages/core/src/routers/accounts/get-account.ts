import { AccountSchema, dataOf } from '@sandbank/schemas';
import { getOwnedAccount } from '../../domain/accounts/accounts.ts';
import { toAccount } from '../../mappers/account.ts';
import { protectedProcedure } from '../../trpc.ts';
import { AccountIdInputSchema } from './accounts.schema.ts';

export const getAccountProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/accounts/{id}',
      tags: ['accounts'],
      summary: 'Get an account',
      description: "One of your accounts with its current balance. Another user's account is 404.",
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(AccountIdInputSchema)
  .output(dataOf(AccountSchema))
  .query(async ({ ctx, input }) => ({
    data: toAccount(await getOwnedAccount(ctx.em, { userId: ctx.user.id, accountId: input.id })),
  }));
