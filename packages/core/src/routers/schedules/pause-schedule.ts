import { pauseSchedule } from '../../domain/schedules/schedules.ts';
import { toSchedule } from '../../mappers/schedule.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ScheduleIdInputSchema, ScheduleOutputSchema } from './schedules.schema.ts';

export const pauseScheduleProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/schedules/{id}/pause',
      tags: ['schedules'],
      summary: 'Pause a schedule',
      description:
        'Occurrences that fall due while paused are skipped. Pausing a paused schedule changes nothing; an ended one is 409 INVALID_TRANSITION.',
    },
    errorCodes: ['NOT_FOUND', 'INVALID_TRANSITION'],
  })
  .input(ScheduleIdInputSchema)
  .output(ScheduleOutputSchema)
  .mutation(async ({ ctx, input }) => ({
    data: toSchedule(await pauseSchedule(ctx.em, { userId: ctx.user.id, scheduleId: input.id })),
  }));
