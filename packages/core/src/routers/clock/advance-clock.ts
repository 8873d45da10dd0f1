import { advanceClock } from '../../domain/due-items/advance-clock.ts';
import { protectedProcedure } from '../../trpc.ts';
import { AdvanceClockInputSchema, AdvanceClockOutputSchema } from './clock.schema.ts';

export const advanceClockProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/clock/advance',
      tags: ['clock'],
      summary: 'Move your world forward in time',
      description:
        'By an ISO 8601 duration or to an instant (exactly one). Everything due on the way fires in due-time order, each at its own due time: schedule runs, pending settlements and expiries. Answers once all of it is done. A second advance of the same world waits for the first (up to 30 s, then 409 CLOCK_ADVANCING). At most two years per call, and at most LIMIT_DUE_ITEMS_PER_REQUEST (default 1,000) items due on the way: more is 422 ADVANCE_TOO_LARGE with the count, and nothing moves (advance in smaller steps).',
    },
    errorCodes: ['CLOCK_BACKWARD', 'CLOCK_ADVANCING', 'ADVANCE_TOO_LARGE'],
  })
  .input(AdvanceClockInputSchema)
  .output(AdvanceClockOutputSchema)
  .mutation(async ({ ctx, input }) => {
    const { from, now, fired, events } = await advanceClock(ctx.em, {
      userId: ctx.user.id,
      by: input.by,
      to: input.to,
      maxItems: ctx.deps.config.limits.dueItemsPerRequest,
    });
    return { data: { from: from.toISOString(), now: now.toISOString(), fired, events } };
  });
