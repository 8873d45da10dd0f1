import { listScheduleRuns } from '../../domain/schedules/schedules.ts';
import { toScheduleRun } from '../../mappers/schedule.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ListScheduleRunsInputSchema, ScheduleRunsOutputSchema } from './schedules.schema.ts';

export const listScheduleRunsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/schedules/{id}/runs',
      tags: ['schedules'],
      summary: "A schedule's runs",
      description:
        'Newest first: each run’s due time and the transaction it booked, or why it failed. Page with `before` = the last n seen.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(ListScheduleRunsInputSchema)
  .output(ScheduleRunsOutputSchema)
  .query(async ({ ctx, input }) => ({
    data: (
      await listScheduleRuns(ctx.em, { userId: ctx.user.id, scheduleId: input.id, limit: input.limit, beforeN: input.before })
    ).map(toScheduleRun),
  }));
