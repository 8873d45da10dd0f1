import { dataOf, WebhookSchema } from '@sandbank/schemas';
import { getOwnedWebhook } from '../../domain/webhooks/webhooks.ts';
import { toWebhook } from '../../mappers/webhook.ts';
import { protectedProcedure } from '../../trpc.ts';
import { WebhookIdInputSchema } from './webhooks.schema.ts';

export const getWebhookProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/webhooks/{id}',
      tags: ['webhooks'],
      summary: 'A webhook',
      description: 'The secret is never returned.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(WebhookIdInputSchema)
  .output(dataOf(WebhookSchema))
  .query(async ({ ctx, input }) => ({
    data: toWebhook(await getOwnedWebhook(ctx.em, ctx.user.id, input.id), ctx.deps.config.webhooks.secretOverlapSeconds),
  }));
