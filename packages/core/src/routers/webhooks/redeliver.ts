import { DeliverySchema, dataOf, IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { redeliver } from '../../domain/webhooks/deliveries.ts';
import { toDelivery } from '../../mappers/webhook.ts';
import { protectedProcedure } from '../../trpc.ts';

export const redeliverProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      tags: ['webhooks'],
      summary: 'Redeliver an event',
      description:
        'Sends the delivery again now, with the same event id as idempotency key, and restarts its retry schedule. A disabled webhook is 409 CONFLICT.',
      successDescription: 'The delivery, queued',
    },
    successStatus: 202,
    errorCodes: ['NOT_FOUND', 'CONFLICT'],
  })
  .input(z.strictObject({ id: IdSchema, deliveryId: IdSchema }))
  .output(dataOf(DeliverySchema))
  .mutation(async ({ ctx, input }) => {
    const { delivery, attempts } = await redeliver(ctx.em, {
      userId: ctx.user.id,
      webhookId: input.id,
      deliveryId: input.deliveryId,
    });
    return { data: toDelivery(delivery, attempts) };
  });
