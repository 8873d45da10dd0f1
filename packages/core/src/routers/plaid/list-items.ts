import { listMeta } from '@sandbank/schemas';
import { listItems } from '../../domain/plaid/items.ts';
import { toPlaidItemSummary } from '../../mappers/plaid-item.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ListPlaidItemsInputSchema, ListPlaidItemsOutputSchema } from './plaid.schema.ts';

export const listItemsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/plaid/items',
      tags: ['integrations'],
      summary: 'List the world’s Plaid Items',
      description:
        'Every Item apps created through the Plaid face in the caller’s world (`/sandbox/public_token/create`, then `/item/public_token/exchange`), removed ones included, newest first: its accounts, its status and error, its webhook URL. Never its tokens.',
    },
  })
  .input(ListPlaidItemsInputSchema)
  .output(ListPlaidItemsOutputSchema)
  .query(async ({ ctx, input }) => {
    const { items, total } = await listItems(ctx.em, {
      userId: ctx.user.id,
      limit: input.limit,
      offset: (input.page - 1) * input.limit,
    });
    return { data: items.map(toPlaidItemSummary), meta: listMeta(input.page, input.limit, total) };
  });
