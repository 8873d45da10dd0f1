import { AccountSchema, listMeta, listOf, PageQuerySchema } from '@sandbank/schemas';
import { z } from 'zod';
import { listAccounts } from '../../domain/accounts/accounts.ts';
import { toAccount } from '../../mappers/account.ts';
import { protectedProcedure } from '../../trpc.ts';

export const listAccountsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/accounts',
      tags: ['accounts'],
      summary: 'List your accounts',
      description: 'Your accounts, open and closed, oldest first.',
    },
  })
  .input(z.strictObject(PageQuerySchema).prefault({}))
  .output(listOf(AccountSchema))
  .query(async ({ ctx, input }) => {
    const { items, total } = await listAccounts(ctx.em, { userId: ctx.user.id, page: input.page, limit: input.limit });
    return { data: items.map(toAccount), meta: listMeta(input.page, input.limit, total) };
  });
