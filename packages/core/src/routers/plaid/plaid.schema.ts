import { dataOf, IdSchema, listOf, PageQuerySchema, PlaidItemSummarySchema } from '@sandbank/schemas';
import { z } from 'zod';
import { FIREABLE_WEBHOOK_CODES } from '../../domain/plaid/item-login.ts';

export const ListPlaidItemsInputSchema = z.strictObject({ ...PageQuerySchema });
export const ListPlaidItemsOutputSchema = listOf(PlaidItemSummarySchema);
export const PlaidItemIdInputSchema = z.strictObject({ id: IdSchema });
export const PlaidItemOutputSchema = dataOf(PlaidItemSummarySchema);
export const FireItemWebhookInputSchema = z.strictObject({
  id: IdSchema,
  code: z.enum(FIREABLE_WEBHOOK_CODES).meta({ description: 'The `webhook_code` to fire; its `webhook_type` follows from it' }),
});
export const FireItemWebhookOutputSchema = dataOf(
  z.object({
    itemId: IdSchema,
    webhookType: z.string().meta({ example: 'TRANSACTIONS' }),
    webhookCode: z.enum(FIREABLE_WEBHOOK_CODES),
  }),
);
export const CreatePublicTokenInputSchema = z.strictObject({});
export const CreatePublicTokenOutputSchema = dataOf(
  z.object({
    itemId: IdSchema,
    publicToken: z.string().meta({
      description:
        'A Plaid `public_token` (`public-sandbox-…`): exchange it at the face’s /item/public_token/exchange within 30 minutes',
    }),
  }),
);
