import { AccountSchema, dataOf } from '@sandbank/schemas';
import { closeAccount as close } from '../../domain/accounts/accounts.ts';
import { toAccount } from '../../mappers/account.ts';
import { protectedProcedure } from '../../trpc.ts';
import { CloseAccountInput } from './accounts.schema.ts';

export const closeAccount = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/accounts/{id}/close',
      tags: ['accounts'],
      summary: 'Close an account',
      description:
        "Confirm with the account's name (422 CONFIRMATION_MISMATCH) and your password (403 INVALID_PASSWORD). The balance must be 0 (409 BALANCE_NOT_ZERO). A closed account takes no transactions; its history stays readable.",
    },
    errorCodes: ['INVALID_PASSWORD', 'NOT_FOUND', 'ACCOUNT_CLOSED', 'BALANCE_NOT_ZERO', 'CONFIRMATION_MISMATCH'],
  })
  .input(CloseAccountInput)
  .output(dataOf(AccountSchema))
  .mutation(async ({ ctx, input }) => ({
    data: toAccount(
      await close(ctx.em, { userId: ctx.user.id, accountId: input.id, name: input.name, password: input.password }),
    ),
  }));
