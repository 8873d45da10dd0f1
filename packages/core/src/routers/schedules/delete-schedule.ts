import { dataOf, IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { deleteSchedule } from '../../domain/schedules/schedules.ts';
import { protectedProcedure } from '../../trpc.ts';
import { ScheduleIdInputSchema } from './schedules.schema.ts';

export const deleteScheduleProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/v1/schedules/{id}',
      tags: ['schedules'],
      summary: 'Delete a schedule',
      description: 'No further runs; the transactions it booked stay.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(ScheduleIdInputSchema)
  .output(dataOf(z.object({ id: IdSchema, deleted: z.literal(true) })))
  .mutation(async ({ ctx, input }) => {
    await deleteSchedule(ctx.em, { userId: ctx.user.id, scheduleId: input.id });
    return { data: { id: input.id, deleted: true as const } };
  });
