import { listEvents } from '../../domain/events/event-log.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ListEventsInputSchema, ListEventsOutputSchema } from './events.schema.ts';

export const listEventsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/events',
      tags: ['events'],
      summary: 'The event log',
      description:
        'Your events in a gap-free order: follow `meta.nextCursor` (as `after`) and you see every committed event exactly once, even when the writes that made them committed out of order. Each item is byte for byte the body its webhooks receive, so deduplicate push and poll by `id`. An event is served once every older database transaction has finished (usually milliseconds). `types` filters by kind, `transactionId` by transaction (its own events and the creation of its reversals: its timeline); a malformed `after` is 400.',
    },
  })
  .input(ListEventsInputSchema)
  .output(ListEventsOutputSchema)
  .query(async ({ ctx, input }) => {
    const page = await listEvents(ctx.em, { userId: ctx.user.id, ...input });
    return { data: page.events, meta: { nextCursor: page.nextCursor, hasMore: page.hasMore } };
  });
