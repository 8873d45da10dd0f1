import { readClock } from '../../domain/clock/clock.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ClockOutputSchema, GetClockInputSchema } from './clock.schema.ts';

export const getClockProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/clock',
      tags: ['clock'],
      summary: "Your world's clock",
      description: 'now = wall time + offsetMs. Every timestamp inside your world (dates, events, due times) is on this clock.',
    },
  })
  .input(GetClockInputSchema)
  .output(ClockOutputSchema)
  .query(async ({ ctx }) => {
    const { now, offsetMs } = await readClock(ctx.em, ctx.user.id);
    return { data: { now: now.toISOString(), offsetMs } };
  });
