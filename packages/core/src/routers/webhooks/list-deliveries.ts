import { DeliverySchema, IdSchema, listMeta, listOf } from '@sandbank/schemas';
import { z } from 'zod';
import { listDeliveries } from '../../domain/webhooks/deliveries.ts';
import { toDelivery } from '../../mappers/webhook.ts';
import { protectedProcedure } from '../../trpc.ts';
import { PageInputSchema } from './webhooks.schema.ts';

export const listDeliveriesProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/webhooks/{id}/deliveries',
      tags: ['webhooks'],
      summary: "List a webhook's deliveries",
      description:
        'Deliveries newest first, each with every attempt: when it started, the status code, the duration, the error, the next scheduled try, the request as sent (headers with signatures, body) and what the receiver answered (status, content-type and content-length, the first 2 KB of the body).',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ id: IdSchema, ...PageInputSchema }))
  .output(listOf(DeliverySchema))
  .query(async ({ ctx, input }) => {
    const { items, total } = await listDeliveries(ctx.em, {
      userId: ctx.user.id,
      webhookId: input.id,
      page: input.page,
      limit: input.limit,
    });
    return {
      data: items.map(({ delivery, attempts }) => toDelivery(delivery, attempts)),
      meta: listMeta(input.page, input.limit, total),
    };
  });
