import { dataOf, WebhookEventSchema } from '@sandbank/schemas';
import { getEvent } from '../../domain/events/event-log.ts';
import { protectedProcedure } from '../../trpc.ts';
import { GetEventInputSchema } from './events.schema.ts';

export const getEventProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/events/{id}',
      tags: ['events'],
      summary: 'One event',
      description: 'The event as its webhooks receive it (`data` is the delivery body, byte for byte).',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(GetEventInputSchema)
  .output(dataOf(WebhookEventSchema))
  .query(async ({ ctx, input }) => ({ data: await getEvent(ctx.em, { userId: ctx.user.id, eventId: input.id }) }));
