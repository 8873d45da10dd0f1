import { dataOf, IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { deleteWebhook } from '../../domain/webhooks/webhooks.ts';
import { protectedProcedure } from '../../trpc.ts';
import { WebhookIdInputSchema } from './webhooks.schema.ts';

export const deleteWebhookProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/v1/webhooks/{id}',
      tags: ['webhooks'],
      summary: 'Delete a webhook',
      description: 'Stops all deliveries to the webhook, including retries that are waiting.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(WebhookIdInputSchema)
  .output(dataOf(z.object({ id: IdSchema, deleted: z.literal(true) })))
  .mutation(async ({ ctx, input }) => {
    await deleteWebhook(ctx.em, ctx.user.id, input.id);
    return { data: { id: input.id, deleted: true as const } };
  });
