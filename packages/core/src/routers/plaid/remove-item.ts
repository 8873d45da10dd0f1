import { readListedItem, removeItem } from '../../domain/plaid/items.ts';
import { notFound } from '../../errors.ts';
import { toPlaidItemSummary } from '../../mappers/plaid-item.ts';
import { protectedProcedure } from '../../trpc.ts';
import { PlaidItemIdInputSchema, PlaidItemOutputSchema } from './plaid.schema.ts';

export const removeItemProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/v1/plaid/items/{id}',
      tags: ['integrations'],
      summary: 'Remove a Plaid Item',
      description:
        'As the face’s `/item/remove`: the Item’s access token stops working (ITEM_NOT_FOUND) and its webhook is retired. Answers the Item as it is after. Another user’s Item, or one removed already, is 404.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(PlaidItemIdInputSchema)
  .output(PlaidItemOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const params = { userId: ctx.user.id, id: input.id };
    const listed = await readListedItem(ctx.em, params);
    if (!listed || listed.item.removed || !(await removeItem(ctx.em, listed.item))) throw notFound('Plaid Item');
    const removed = await readListedItem(ctx.em, params);
    if (!removed) throw notFound('Plaid Item');
    return { data: toPlaidItemSummary(removed) };
  });
