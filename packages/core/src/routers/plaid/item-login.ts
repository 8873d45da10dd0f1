import { changeItemLogin, linkedItem } from '../../domain/plaid/item-login.ts';
import { readListedItem } from '../../domain/plaid/items.ts';
import { notFound } from '../../errors.ts';
import { toPlaidItemSummary } from '../../mappers/plaid-item.ts';
import { protectedProcedure } from '../../trpc.ts';
import { PlaidItemIdInputSchema, PlaidItemOutputSchema } from './plaid.schema.ts';

const loginProcedure = (state: 'good' | 'login_required', path: `/${string}`, summary: string, description: string) =>
  protectedProcedure
    .meta({
      openapi: { method: 'POST', path, tags: ['integrations'], summary, description },
      errorCodes: ['NOT_FOUND', 'CONFLICT'],
    })
    .input(PlaidItemIdInputSchema)
    .output(PlaidItemOutputSchema)
    .mutation(async ({ ctx, input }) => {
      const params = { userId: ctx.user.id, id: input.id };
      const { item } = await linkedItem(ctx.em, params);
      if ((await changeItemLogin(ctx.em, item, state)) === 'removed') throw notFound('Plaid Item');
      const after = await readListedItem(ctx.em, params);
      if (!after) throw notFound('Plaid Item');
      return { data: toPlaidItemSummary(after) };
    });

export const resetItemLoginProcedure = loginProcedure(
  'login_required',
  '/v1/plaid/items/{id}/reset-login',
  'Require the Item’s login again',
  'As the face’s `/sandbox/item/reset_login`: the Item’s calls answer ITEM_LOGIN_REQUIRED until it is repaired, and its webhook (if it has one) gets ITEM: ERROR. Already so: nothing changes and no webhook is sent. Removed, unknown or another user’s: 404; public token not exchanged yet: 409.',
);

export const repairItemProcedure = loginProcedure(
  'good',
  '/v1/plaid/items/{id}/repair',
  'Repair the Item’s login',
  'As the face’s `/sandbox/item/repair` (what Link’s update mode does for a real Item): the Item works again and its webhook (if it has one) gets ITEM: LOGIN_REPAIRED. Not in error: nothing changes and no webhook is sent. Removed, unknown or another user’s: 404; public token not exchanged yet: 409.',
);
