import { resumeSchedule } from '../../domain/schedules/schedules.ts';
import { toSchedule } from '../../mappers/schedule.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ScheduleIdInputSchema, ScheduleOutputSchema } from './schedules.schema.ts';

export const resumeScheduleProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/v1/schedules/{id}/resume',
      tags: ['schedules'],
      summary: 'Resume a schedule',
      description:
        'Runs again from the next occurrence after your clock’s now; missed ones stay skipped. Resuming an active schedule changes nothing.',
    },
    errorCodes: ['NOT_FOUND', 'INVALID_TRANSITION'],
  })
  .input(ScheduleIdInputSchema)
  .output(ScheduleOutputSchema)
  .mutation(async ({ ctx, input }) => ({
    data: toSchedule(await resumeSchedule(ctx.em, { userId: ctx.user.id, scheduleId: input.id })),
  }));
