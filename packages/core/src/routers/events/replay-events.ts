import { dataOf, IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { REPLAY_MAX_EVENTS, replayEvents } from '../../domain/webhooks/lab.ts';
import { CursorInputSchema } from '../../lib/cursor.ts';
import { protectedProcedure } from '../../trpc.ts';
import { EventTypesListSchema } from './events.schema.ts';

export const replayEventsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/events/replay',
      tags: ['events'],
      summary: 'Replay events to a webhook',
      description: `Queues the log's events again for one webhook, oldest first: those after the cursor \`after\` up to and including the event the cursor \`until\` follows (both are \`nextCursor\` values of GET /v1/events), of the kinds the webhook subscribes to (narrowed by \`types\`). The same event ids (so receivers deduplicate), new attempts. At most \`limit\` (≤ ${REPLAY_MAX_EVENTS}) per call: with \`hasMore\`, call again with \`after: nextCursor\`. A disabled webhook is 409 CONFLICT; a malformed cursor 400.`,
      successDescription: 'The events queued',
    },
    successStatus: 202,
    errorCodes: ['NOT_FOUND', 'CONFLICT'],
  })
  .input(
    z.strictObject({
      webhookId: IdSchema,
      after: CursorInputSchema.optional(),
      until: CursorInputSchema.optional(),
      types: EventTypesListSchema.optional(),
      limit: z
        .int()
        .min(1)
        .max(REPLAY_MAX_EVENTS)
        .default(100)
        .meta({ description: `Events per call, 1–${REPLAY_MAX_EVENTS}` }),
    }),
  )
  .output(
    dataOf(
      z.object({
        webhookId: IdSchema,
        queued: z.int(),
        eventIds: z.array(IdSchema),
        hasMore: z.boolean(),
        nextCursor: z.string().meta({ description: 'Pass as `after` to continue the replay' }),
      }),
    ),
  )
  .mutation(async ({ ctx, input }) => {
    const { webhookId, ...rest } = input;
    const result = await replayEvents(ctx.em, { userId: ctx.user.id, webhookId, ...rest });
    return { data: { webhookId, queued: result.eventIds.length, ...result } };
  });
