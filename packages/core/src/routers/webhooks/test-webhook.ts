import { dataOf, IdSchema, TimestampSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { sendTestEvent } from '../../domain/webhooks/lab.ts';
import { protectedProcedure } from '../../trpc.ts';
import { WebhookIdInputSchema } from './webhooks.schema.ts';

export const testWebhookProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/webhooks/{id}/test',
      tags: ['webhooks'],
      summary: 'Send a test event',
      description:
        "Sends a signed `webhook.test` event (`data` is `{}`) to this webhook now, whatever kinds it subscribes to, with its faults if it has any. It is not part of the event log. The delivery shows in the webhook's deliveries. A disabled webhook is 409 CONFLICT.",
      successDescription: 'The test event, queued',
    },
    successStatus: 202,
    errorCodes: ['NOT_FOUND', 'CONFLICT'],
  })
  .input(WebhookIdInputSchema)
  .output(dataOf(z.object({ eventId: IdSchema, deliveryId: IdSchema, createdAt: TimestampSchema })))
  .mutation(async ({ ctx, input }) => {
    const sent = await sendTestEvent(ctx.em, { userId: ctx.user.id, webhookId: input.id });
    return { data: { ...sent, createdAt: sent.createdAt.toISOString() } };
  });
