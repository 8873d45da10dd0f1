import { FIREABLE_WEBHOOK_CODES, fireableWebhookType, fireItemWebhook, linkedItem } from '../../domain/plaid/item-login.ts';
import { AppError } from '../../errors.ts';
import { protectedProcedure } from '../../trpc.ts';
import { FireItemWebhookInputSchema, FireItemWebhookOutputSchema } from './plaid.schema.ts';

export const fireItemWebhookProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/plaid/items/{id}/fire-webhook',
      tags: ['integrations'],
      summary: 'Fire one of the Item’s Plaid webhooks',
      description: `As the face’s \`/sandbox/item/fire_webhook\`: queues the Plaid webhook \`code\` (${FIREABLE_WEBHOOK_CODES.join(', ')}) to the Item’s webhook URL, signed with a Plaid-Verification JWT; it shows in that webhook’s deliveries. An Item without a webhook URL, or whose public token was not exchanged yet, is 409; removed, unknown or another user’s, 404.`,
      successDescription: 'The webhook, queued',
    },
    successStatus: 202,
    errorCodes: ['NOT_FOUND', 'CONFLICT'],
  })
  .input(FireItemWebhookInputSchema)
  .output(FireItemWebhookOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { item } = await linkedItem(ctx.em, { userId: ctx.user.id, id: input.id });
    if (!(await fireItemWebhook(ctx.em, item, input.code))) {
      throw new AppError('CONFLICT', 'The Item has no webhook URL: the app sets one with /item/webhook/update');
    }
    return { data: { itemId: item.id, webhookType: fireableWebhookType(input.code), webhookCode: input.code } };
  });
