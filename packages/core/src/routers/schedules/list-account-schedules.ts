import { IdSchema } from '@sandbank/schemas';
import { z } from 'zod';
import { listAccountSchedules } from '../../domain/schedules/schedules.ts';
import { toSchedule } from '../../mappers/schedule.ts';
import { protectedProcedure } from '../../trpc.ts';
import { SchedulesOutputSchema } from './schedules.schema.ts';

export const listAccountSchedulesProcedure = protectedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/accounts/{id}/schedules',
      tags: ['schedules'],
      summary: "An account's schedules",
      description: 'Oldest first, in every state (active, paused, ended), each with its next run and how many runs fired.',
    },
    errorCodes: ['NOT_FOUND'],
  })
  .input(z.strictObject({ id: IdSchema }))
  .output(SchedulesOutputSchema)
  .query(async ({ ctx, input }) => ({
    data: (await listAccountSchedules(ctx.em, { userId: ctx.user.id, accountId: input.id })).map(toSchedule),
  }));
